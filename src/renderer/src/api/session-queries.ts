/**
 * Agent sessions as the harnesses' lifecycle hooks report them: every hub's newest session state
 * events (`status`, topic `session`), folded into each session's latest state. `hub.list` is a hub
 * read, so a new state refetches it live like the rest of the Overview.
 */
import { useQueries } from '@tanstack/react-query'
import {
  foldSessions,
  SESSION_EVENT,
  withApprovals,
  type SessionShownState,
  type SessionState
} from '../../../shared/contract/session-state'
import type { MethodInput, MethodOutput } from '../../../shared/api'
import { client } from './client'
import { useApprovals } from './approval-queries'
import { useHubs } from './hub-queries'
import { queryKey } from './queries'

/** Session state events read per hub (the newest). */
const PER_HUB = 300

/**
 * One session, with the hub it reports to and the state to show: "waiting for your approval"
 * (`approval`) while one of its tool calls waits in the inbox, since the oldest one.
 */
export type AgentSession = SessionState & { hub: string; shown: SessionShownState; shownSince: string }

/** Every hub's sessions (registered hubs, and MemPalace's default when it exists). */
export function useAgentSessions(): { sessions: AgentSession[]; loading: boolean; errors: string[] } {
  const hubs = useHubs().data
  const targets: { name: string; sel: { hub?: string } }[] = hubs
    ? [
        ...hubs.hubs.filter((h) => h.online).map((h) => ({ name: h.name, sel: { hub: h.name } })),
        ...(!hubs.default.registered && hubs.default.exists ? [{ name: hubs.default.name, sel: {} }] : [])
      ]
    : []
  const results = useQueries({
    queries: targets.map((t) => {
      const input: MethodInput<'hub.list'> = {
        ...t.sel,
        type: SESSION_EVENT.type,
        topic: SESSION_EVENT.topic,
        order: 'desc',
        limit: PER_HUB
      }
      return {
        queryKey: queryKey('hub.list', input),
        queryFn: (): Promise<MethodOutput<'hub.list'>> => client.call('hub.list', input)
      }
    })
  })
  const pending = useApprovals().data?.pending ?? []
  const reported = results.flatMap((r, i) => (r.data ? foldSessions(r.data.events).map((s) => ({ ...s, hub: targets[i]!.name })) : []))
  const sessions = withApprovals(reported, pending)
  return {
    sessions,
    loading: !hubs || results.some((r) => r.isPending),
    errors: results.flatMap((r, i) => (r.error ? [`${targets[i]!.name}: ${r.error.message}`] : []))
  }
}
