/**
 * What each not-yet-built screen will show. Plain facts from the product spec: what it lists,
 * which protocol it reads, and its CLI counterpart. No sample data on purpose.
 */
import type { ScreenId } from '../../lib/screens'

/** The plan of one upcoming screen. */
export interface ScreenPlan {
  title: string
  summary: string
  /** What the screen will list, one bullet per line. */
  lists: readonly string[]
  /** What the operator will be able to do from it. */
  actions: readonly string[]
  /** Protocol and on-disk source. */
  source: { protocol: string; where: string }
  /** CLI commands covering the same feature. */
  cli: readonly string[]
}

/** Plans keyed by screen id (only the screens that are not built yet). */
export const SCREEN_PLANS: Partial<Record<ScreenId, ScreenPlan>> = {
  timeline: {
    title: 'Timeline',
    summary: 'The hub’s append-only event stream, newest first or grouped by thread, live as agents write it.',
    lists: [
      'Task requests, claims, replies, patch.ready, acks and status announcements',
      'Filters: stream, room, topic, type, from, to (incl. broadcast *), correlation id, status, text',
      'A thread view per correlation id with the folded task state (open / claimed / done / stuck)'
    ],
    actions: [
      'Scroll a million events smoothly (virtualised list)',
      'Create a task.request, ack an event, post a reply or announce presence as the operator',
      'Follow your inbox: events addressed to you or to *, with a persisted read cursor'
    ],
    source: { protocol: 'MemPalace hub (logstream)', where: '<palace>/logstream.sqlite3, or a remote hub over HTTP + SSE' },
    cli: ['muster events list | watch | wait | append | ack', 'muster thread <correlation_id>', 'muster task create']
  },
  patches: {
    title: 'Patches',
    summary: 'Every patch an agent has published, verified byte-for-byte before anything touches a working tree.',
    lists: [
      'Each patch.ready event with its artifact, size and the base commit it expects',
      'Stored sha256 vs recomputed sha256 (and vs any sha the sender quoted in its message)',
      'A diff view of the artifact and the upstream warnings that apply to it'
    ],
    actions: [
      'Apply, only by an explicit click: choose the project, check the base commit, git apply --check, apply',
      'Optionally run the project’s test command, then ack applied or failed with the evidence',
      'A patch whose sha256 does not match can never be applied'
    ],
    source: { protocol: 'MemPalace hub: patch.ready events + artifacts', where: 'logstream.sqlite3 (events, artifacts, event_artifacts)' },
    cli: ['muster patch verify | apply | submit', 'muster artifact get']
  }
}
