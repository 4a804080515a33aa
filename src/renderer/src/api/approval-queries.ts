/**
 * react-query bindings of the approvals methods. The inbox refetches with the other hub reads when
 * rows arrive (`hub.events`), and every 15 s besides, so requests whose hook has stopped waiting
 * move to the history even when nothing is written.
 */
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query'
import type { ApprovalItem, MethodInput, MethodOutput } from '../../../shared/api'
import { client } from './client'
import { queryKey } from './queries'

/** How often the inbox is re-read without a push (expiry is a matter of time, not of writes). */
const INBOX_REFRESH_MS = 15_000

/** The inbox across every known hub. */
export function useApprovals() {
  return useQuery<MethodOutput<'approvals.list'>, Error>({
    queryKey: queryKey('approvals.list', {}),
    queryFn: () => client.call('approvals.list', {}),
    refetchInterval: INBOX_REFRESH_MS
  })
}

/** The allowlist rules with their hit counts. */
export const useAllowRules = () =>
  useQuery<MethodOutput<'approvals.rules'>, Error>({
    queryKey: queryKey('approvals.rules', {}),
    queryFn: () => client.call('approvals.rules', {})
  })

/** Refetches the inbox and the rules (after a decision, or a rule change). */
export function invalidateApprovals(qc: QueryClient): Promise<void> {
  return Promise.all([
    qc.invalidateQueries({ queryKey: ['approvals.list'] }),
    qc.invalidateQueries({ queryKey: ['approvals.rules'] })
  ]).then(() => undefined)
}

/** The selection that addresses an item's hub: its registered name, or its palace when unregistered. */
export function itemHub(item: Pick<ApprovalItem, 'hub' | 'palace'>): { hub?: string; palace?: string } {
  return item.hub === item.palace ? { palace: item.palace } : { hub: item.hub }
}

function useApprovalWrite<
  M extends 'approvals.decide' | 'approvals.decideMany' | 'approvals.snooze' | 'approvals.ruleSave' | 'approvals.ruleDelete'
>(method: M) {
  const qc = useQueryClient()
  return useMutation<MethodOutput<M>, Error, MethodInput<M>>({
    mutationFn: (input) => client.call(method, input),
    onSettled: () => invalidateApprovals(qc)
  })
}

/** Allows or denies one request. */
export const useDecide = () => useApprovalWrite('approvals.decide')
/** The same decision for several requests. */
export const useDecideMany = () => useApprovalWrite('approvals.decideMany')
/** "Not now": hides a request for a while without deciding it (0 minutes wakes it). */
export const useSnooze = () => useApprovalWrite('approvals.snooze')
/** Adds or changes an allowlist rule. */
export const useSaveRule = () => useApprovalWrite('approvals.ruleSave')
/** Deletes an allowlist rule. */
export const useDeleteRule = () => useApprovalWrite('approvals.ruleDelete')
