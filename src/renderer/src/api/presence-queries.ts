/**
 * react-query bindings of presence: the home's settings, and the ceremonies that change them (the
 * page asks the authenticator, then sends its answer). A change made while an authenticator is
 * enrolled carries a proof over `presence.challenge`'s text.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { ApprovalItem, MethodOutput, PresenceProofInput } from '../../../shared/api'
import type { RiskyPattern } from '../../../shared/approvals/presence'
import { assertPresence, createCredential } from '../lib/webauthn'
import { itemHub } from './approval-queries'
import { client } from './client'
import { queryKey } from './queries'

/** The policy, the risky list and the enrolled authenticators. */
export const usePresence = () =>
  useQuery<MethodOutput<'presence.status'>, Error>({
    queryKey: queryKey('presence.status', {}),
    queryFn: () => client.call('presence.status', {})
  })

/** A proof for a change while an authenticator is enrolled (none needed before the first). */
async function proofFor(
  enrolled: number,
  change:
    { op: 'policy'; policy: MethodOutput<'presence.status'>['policy']; risky?: RiskyPattern[] } | { op: 'credential.remove'; id: string }
): Promise<PresenceProofInput | undefined> {
  if (!enrolled) return undefined
  return assertPresence(await client.call('presence.challenge', change))
}

function usePresenceChange<I>(run: (input: I) => Promise<unknown>) {
  const qc = useQueryClient()
  return useMutation<unknown, Error, I>({
    mutationFn: run,
    onSettled: () => qc.invalidateQueries({ queryKey: ['presence.status'] })
  })
}

/** Enrols an authenticator on this page (with the presence of one enrolled already, if any). */
export const useEnrol = () =>
  usePresenceChange(async ({ name }: { name: string }) => {
    const origin = window.location.origin
    const { options } = await client.call('presence.enrolStart', { origin })
    const response = await createCredential(options)
    const first = await client.call('presence.enrolFinish', { origin, name, response })
    if ('enrolled' in first) return first.enrolled
    const done = await client.call('presence.enrolFinish', { origin, name, response, presence: await assertPresence(first.needs_presence) })
    if (!('enrolled' in done)) throw new Error('the authenticator was not enrolled')
    return done.enrolled
  })

/** Sets the policy and the risky list. */
export const useSetPolicy = () =>
  usePresenceChange(async (o: { policy: MethodOutput<'presence.status'>['policy']; risky: RiskyPattern[]; enrolled: number }) =>
    client.call('presence.setPolicy', {
      policy: o.policy,
      risky: o.risky,
      presence: await proofFor(o.enrolled, { op: 'policy', policy: o.policy, risky: o.risky })
    })
  )

/** Removes an enrolled authenticator. */
export const useRemoveAuthenticator = () =>
  usePresenceChange(async (o: { id: string; enrolled: number }) =>
    client.call('presence.remove', { id: o.id, presence: await proofFor(o.enrolled, { op: 'credential.remove', id: o.id }) })
  )

/** The challenge of allowing `item` (fetched ahead, so the tap goes straight to the authenticator). */
export const useAllowChallenge = (item: ApprovalItem | null) =>
  useQuery<MethodOutput<'approvals.presenceChallenge'>, Error>({
    queryKey: queryKey('approvals.presenceChallenge', { id: item?.id ?? '', decision: 'allow' }),
    queryFn: () => client.call('approvals.presenceChallenge', { ...itemHub(item!), id: item!.id, decision: 'allow' }),
    enabled: !!item?.presence_required,
    staleTime: Infinity
  })
