/**
 * react-query bindings and helpers for the hub methods (timeline, threads, overview, writes).
 * Every write refetches what it affects and tells open timelines to catch up, because the hub
 * watcher pushes `hub.events` only for rows written by other processes.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { ACK_OF, EventType, methods, type HubInfo, type MethodInput, type MethodOutput } from '../../../shared/api'
import { client } from './client'
import { queryKey, useMethodQuery } from './queries'

/** Which hub a call goes to: a registered name, or MemPalace's default when absent. */
export type HubSel = { hub?: string }

/** `{ hub }` for a registered hub name, `{}` for the default. */
export function hubSel(hub: string | null | undefined): HubSel {
  return hub ? { hub } : {}
}

/**
 * True when `hub.list` takes numeric rowid cursors (`before_seq`/`since_seq`): then the timeline
 * can fetch any page of an unfiltered stream straight from its position.
 */
export const SEQ_CURSORS: boolean = (() => {
  const shape = (methods['hub.list'].input as unknown as { shape?: Record<string, unknown> }).shape
  return !!shape && 'before_seq' in shape && 'since_seq' in shape
})()

import { invalidateHubReads } from './hub-reads'

export { invalidateHubReads }

type WriteListener = (palace: string) => void
const writeListeners = new Set<WriteListener>()

/** Runs `listener` after this window wrote to a hub (its palace folder); returns the unsubscribe. */
export function onHubWritten(listener: WriteListener): () => void {
  writeListeners.add(listener)
  return () => {
    writeListeners.delete(listener)
  }
}

/** Registered hubs and the default one. */
export const useHubs = () => useMethodQuery('hubs.list', {})

/** One hub's record from `hubs.list` (a registered name, or null for the default), once loaded. */
export function useHubInfo(hub: string | null): HubInfo | undefined {
  const data = useHubs().data
  if (!data) return undefined
  return hub ? data.hubs.find((h) => h.name.toLowerCase() === hub.toLowerCase()) : data.default
}

/** Why writes to a hub are refused (a read-only file or `--read-only` server), or null. */
export function useWriteRefusal(hub: string | null): string | null {
  const info = useHubInfo(hub)
  return info?.read_only ? (info.read_only_reason ?? 'this hub is read-only') : null
}
/** Per-hub overview: agents, task counts, patches waiting, inbox. */
export const useHubOverview = () => useMethodQuery('hub.overview', {})

/** One thread folded into its task state, with its steps and events. */
export function useThread(hub: string | null, correlationId: string | null) {
  const input = { ...hubSel(hub), correlation_id: correlationId ?? '' }
  return useQuery<MethodOutput<'hub.thread'>, Error>({
    queryKey: queryKey('hub.thread', input),
    queryFn: () => client.call('hub.thread', input),
    enabled: !!correlationId
  })
}

/** One event in full (the list shows previews). */
export function useHubEvent(hub: string | null, id: string | null) {
  const input = { ...hubSel(hub), id: id ?? '' }
  return useQuery<MethodOutput<'hub.get'>, Error>({
    queryKey: queryKey('hub.get', input),
    queryFn: () => client.call('hub.get', input),
    enabled: !!id
  })
}

/** An artifact's record with the sha256 and size re-checked by the core, and its patch warnings. */
export function useArtifact(hub: string | null, id: string) {
  const input = { ...hubSel(hub), id }
  return useQuery<MethodOutput<'hub.artifact'>, Error>({
    queryKey: queryKey('hub.artifact', input),
    queryFn: () => client.call('hub.artifact', input),
    staleTime: Infinity
  })
}

/** The acks of one event: `event.ack` rows of its thread whose `ack_of` is the event. */
export function useAcksOf(hub: string | null, id: string | null, correlationId: string | null) {
  const input = { ...hubSel(hub), type: EventType.ack, correlation_id: correlationId ?? id ?? '', order: 'asc' as const, limit: 500 }
  return useQuery<MethodOutput<'hub.list'>, Error, MethodOutput<'hub.list'>['events']>({
    queryKey: queryKey('hub.list', input),
    queryFn: () => client.call('hub.list', input),
    enabled: !!id,
    select: (out) => out.events.filter((e) => e.metadata[ACK_OF] === id)
  })
}

type HubWrite = 'hub.ack' | 'hub.append' | 'hub.taskCreate' | 'hub.announce' | 'hub.markRead'

/** A hub write as the operator; refetches hub reads and wakes the timeline. */
function useHubWrite<M extends HubWrite>(method: M) {
  const qc = useQueryClient()
  return useMutation<MethodOutput<M>, Error, MethodInput<M>>({
    mutationFn: (input) => client.call(method, input),
    onSuccess: (out) => {
      const palace = (out as { palace?: string }).palace ?? ''
      for (const l of writeListeners) l(palace)
      return invalidateHubReads(qc)
    }
  })
}

/** Acks an event (`event.ack` with a status and optional body). */
export const useAck = () => useHubWrite('hub.ack')
/** Appends an event (replies). */
export const useAppend = () => useHubWrite('hub.append')
/** Creates a canonical `task.request`. */
export const useTaskCreate = () => useHubWrite('hub.taskCreate')
/** Announces the operator's presence. */
export const useAnnounce = () => useHubWrite('hub.announce')
/** Moves the inbox cursor. */
export const useMarkRead = () => useHubWrite('hub.markRead')
