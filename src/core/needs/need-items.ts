/**
 * Turning what the hub service, the patch and approvals services and the directive index report
 * into needs-you items: one pure function per kind, the ranking (longest wait first) and the
 * counts. No I/O here; `needs-service.ts` gathers the inputs.
 */
import type { ApprovalItem } from '../../shared/contract/approvals-types'
import type { GateHealth } from '../../shared/contract/gates-types'
import type { HubEventEnvelope, TaskSummary } from '../../shared/contract/hub-types'
import { EventType, Status } from '../../shared/contract/hub-vocabulary'
import type { Directive, KeptEdit } from '../../shared/contract/muse'
import { NEED_KINDS, type NeedCounts, type NeedItem, type NeedKind } from '../../shared/contract/needs-types'
import type { PatchSummary } from '../../shared/contract/patch-types'
import type { SessionState } from '../../shared/contract/session-state'
import { eventTypeKey, isApprovalEventType, isEventType } from '../../shared/event-type'
import { approvalLink, directiveLink, eventLink, patchLink, roleLink, threadLink, usageLink } from '../../shared/links'
import type { Budget } from '../../shared/contract/usage-types'

/** Where a hub item comes from: the hub's shown name, its location, and the name links use (null: the default palace). */
export interface HubWhere {
  hub: string
  palace: string
  /** The registered name for links (null for MemPalace's default palace). */
  linkHub: string | null
}

/** Event types a direct message item never stands for (they have items of their own, or are replies to the operator's own requests). */
const NOT_MESSAGES: ReadonlySet<string> = new Set([
  EventType.approvalRequest,
  EventType.approvalDecision,
  EventType.approvalReceipt,
  EventType.patchReady,
  EventType.taskRequest
])

/** One line of text (whitespace folded), cut at `max`. */
export function oneLine(text: string, max = 140): string {
  const l = text.replace(/\s+/g, ' ').trim()
  return l.length > max ? `${l.slice(0, max - 1)}…` : l
}

/** A stream's project: `project/muse` → `muse`; anything else as is (null when empty). */
export function projectOf(stream: string): string | null {
  const p = stream.replace(/^project\//, '')
  return p || null
}

const hubItem = (w: HubWhere, kind: NeedKind, ref: string, rest: Omit<NeedItem, 'key' | 'kind' | 'hub' | 'palace' | 'ref'>): NeedItem => ({
  key: `${kind}:${w.palace}:${ref}`,
  kind,
  hub: w.hub,
  palace: w.palace,
  ref,
  ...rest
})

/** A crossed budget that holds sessions (one not every held session was let go on past): their tool calls wait for the operator. */
export function budgetNeed(b: Budget, now: Date): NeedItem | null {
  if (!b.crossed || !b.trusted) return null
  const held = b.held.filter((h) => !h.released)
  if (b.scope === 'session' && !held.length) return null
  const used = b.tokens !== null ? `${b.used.total.toLocaleString('en-US')} tokens` : `$${(b.used.usd ?? 0).toFixed(2)} (estimate)`
  const agents = [...new Set(held.map((h) => h.agent).filter((a): a is string => !!a))]
  return {
    key: `budget:${b.id}:${b.updated_at}`,
    kind: 'budget',
    agent: b.scope === 'agent' ? b.target : (agents[0] ?? null),
    project: b.scope === 'project' ? b.target : null,
    hub: null,
    palace: null,
    since: b.crossed_since ?? now.toISOString(),
    title: `Budget crossed: ${b.label}`,
    detail: `${used} used; ${held.length === 1 ? 'its session’s' : `${held.length} sessions’`} tool calls wait for you`,
    ref: String(b.id),
    link: usageLink(b.id)
  }
}

/** A pending approval request. */
export function approvalNeed(w: HubWhere, a: ApprovalItem): NeedItem {
  return hubItem(w, 'approval', a.id, {
    agent: a.agent,
    project: a.project || null,
    since: a.created_at,
    title: `${a.agent} asks to use ${a.tool_name}`,
    detail: oneLine(a.summary),
    link: approvalLink(w.linkHub, a.id)
  })
}

/** A patch waiting to be applied (the Patches inbox's own state). */
export function patchNeed(w: HubWhere, p: PatchSummary): NeedItem {
  const e = p.event
  return hubItem(w, 'patch', e.id, {
    agent: e.from_agent,
    project: p.project ?? projectOf(e.stream),
    since: e.created_at,
    title: `Patch from ${e.from_agent} waiting to be applied`,
    detail: oneLine(`${p.file_count} file${p.file_count === 1 ? '' : 's'} +${p.additions} −${p.deletions} · ${e.body}`),
    link: patchLink(w.linkHub, e.id)
  })
}

/**
 * Task items: a claimed task with no progress (stuck); an open task addressed to the operator; a
 * task the operator requested that came back ready or blocked (unless a waiting patch of the same
 * thread already stands for it).
 */
export function taskNeeds(w: HubWhere, tasks: readonly TaskSummary[], operator: string, patchThreads: ReadonlySet<string>): NeedItem[] {
  const out: NeedItem[] = []
  for (const t of tasks) {
    const r = t.request
    const title = oneLine(r?.title ?? t.correlation_id, 100)
    const link = threadLink(w.linkHub, t.correlation_id)
    const project = r ? projectOf(r.stream) : null
    if (t.stuck) {
      out.push(
        hubItem(w, 'stuck', t.correlation_id, {
          agent: t.claimed_by,
          project,
          since: t.state_at ?? t.claimed_at ?? r?.created_at ?? t.last_at ?? new Date(0).toISOString(),
          title: `Task stuck: ${title}`,
          detail: `claimed by ${t.claimed_by ?? 'someone'}, no progress since`,
          link
        })
      )
    } else if (t.state === Status.open && r && r.to_agent === operator && r.from_agent !== operator) {
      out.push(
        hubItem(w, 'task', t.correlation_id, {
          agent: r.from_agent,
          project,
          since: r.created_at,
          title: `${r.from_agent} asks you: ${title}`,
          detail: `task ${t.correlation_id}, open`,
          link
        })
      )
    } else if (
      (t.state === Status.ready || t.state === Status.blocked) &&
      r?.from_agent === operator &&
      !patchThreads.has(t.correlation_id)
    ) {
      const worker = t.state_by ?? t.claimed_by ?? r.to_agent
      out.push(
        hubItem(w, 'task', t.correlation_id, {
          agent: worker,
          project,
          since: t.state_at ?? r.created_at,
          title: t.state === Status.ready ? `Task ready for you: ${title}` : `Task blocked: ${title}`,
          detail: `${worker ?? 'the agent'} marked it ${t.state}`,
          link
        })
      )
    }
  }
  return out
}

/** Whether an event is addressed to the operator directly (not a broadcast) by someone else. */
export const isDirect = (e: HubEventEnvelope, operator: string): boolean => e.to_agent === operator && e.from_agent !== operator

/**
 * Unread direct messages: events to the operator that no other kind stands for. Acks are progress
 * in a thread (a claim, a ready task has its task item) except a failure, which is news.
 */
export function messageNeeds(w: HubWhere, unreadDirect: readonly HubEventEnvelope[]): NeedItem[] {
  return unreadDirect
    .filter(
      (e) =>
        !NOT_MESSAGES.has(eventTypeKey(e.type)) &&
        !isApprovalEventType(e.type) &&
        (!isEventType(e.type, EventType.ack) || e.status === Status.failed)
    )
    .map((e) =>
      hubItem(w, 'message', e.id, {
        agent: e.from_agent,
        project: projectOf(e.stream),
        since: e.created_at,
        title: `${e.from_agent}: ${e.type}${e.status ? ` (${e.status})` : ''}`,
        detail: oneLine(e.body),
        link: e.correlation_id ? threadLink(w.linkHub, e.correlation_id) : eventLink(w.linkHub, e.id, { to_agent: e.to_agent ?? '' })
      })
    )
}

/** Sessions waiting for input (one whose pending approval already stands for it is left out). */
export function sessionNeeds(w: HubWhere, sessions: readonly SessionState[], approvalSessions: ReadonlySet<string>): NeedItem[] {
  return sessions
    .filter((s) => s.state === 'waiting' && !approvalSessions.has(s.session_id))
    .map((s) =>
      hubItem(w, 'session', s.session_id, {
        agent: s.agent,
        project: projectOf(s.stream),
        since: s.since,
        title: `${s.agent} waits for input (${s.harness})`,
        detail: oneLine(s.message ?? s.body),
        link: eventLink(w.linkHub, s.event_id, { from_agent: s.agent, topic: 'session' })
      })
    )
}

/**
 * Whether a role is one the operator answers for: `roles` holds `ROLE` (in every project) or
 * `PROJECT/ROLE`, compared without case.
 */
export function answersFor(roles: readonly string[], project: string, role: string): boolean {
  const r = role.toLowerCase()
  const pr = `${project.toLowerCase()}/${r}`
  return roles.some((x) => {
    const want = x.trim().toLowerCase()
    return want === r || want === pr
  })
}

/** Month/day (`3/13`, `3/13 16:00`) or ISO-ish (`2026-12-02 19:20`) directive dates, as local time; null when unreadable. */
export function directiveDate(text: string | null, now: Date): Date | null {
  if (!text) return null
  const iso = /(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2}))?/.exec(text)
  if (iso) return new Date(+iso[1]!, +iso[2]! - 1, +iso[3]!, +(iso[4] ?? 0), +(iso[5] ?? 0))
  const md = /(\d{1,2})\/(\d{1,2})(?:\s+(\d{1,2}):(\d{2}))?/.exec(text)
  if (!md) return null
  const d = new Date(now.getFullYear(), +md[1]! - 1, +md[2]!, +(md[3] ?? 0), +(md[4] ?? 0))
  // a month/day later than today is last year's
  if (d.getTime() > now.getTime() + 24 * 3600 * 1000) d.setFullYear(d.getFullYear() - 1)
  return d
}

/** Directives pending for a role the operator answers for (an `ALL` one counts once per project it reaches). */
export function directiveNeeds(directives: readonly Directive[], roles: readonly string[], now: Date): NeedItem[] {
  if (!roles.length) return []
  const out: NeedItem[] = []
  for (const d of directives) {
    if (d.state !== 'pending' || d.resolution.kind !== 'role') continue
    if (!answersFor(roles, d.resolution.project, d.resolution.role)) continue
    const src = d.source
    const since = directiveDate(src?.date ?? null, now) ?? now
    out.push({
      key: `directive:${d.key}`,
      kind: 'directive',
      agent: src ? `${src.project}/${src.role}` : null,
      project: d.resolution.project,
      hub: null,
      palace: null,
      since: since.toISOString(),
      title: `Directive ${d.id} for ${d.target}: ${oneLine(d.title, 100)}`,
      detail: src ? `from ${src.project}/${src.role}${src.date ? `, ${src.date}` : ''}` : 'pending',
      ref: d.id,
      link: directiveLink(d.id, d.key)
    })
  }
  return out
}

/** A send kept beside its role file because other writers kept dropping it: merged with one click on the role's page. */
export function keptNeed(k: KeptEdit): NeedItem {
  return {
    key: `kept:${k.project}:${k.name}`,
    kind: 'kept',
    agent: null,
    project: k.project,
    hub: null,
    palace: null,
    since: k.since,
    title: `A send to ${k.file} was overwritten and kept aside`,
    detail: k.missing
      ? `${k.missing} line${k.missing === 1 ? '' : 's'} to merge back${k.preview[0] ? `: ${oneLine(k.preview[0], 100)}` : ''}`
      : 'every line is in the file again: merging deletes the copy',
    ref: k.name,
    link: roleLink(k.project, k.role)
  }
}

/** An installed gate that would not stop a call for the operator, with its fix (from the gates' last check). */
export function gateNeeds(gates: readonly GateHealth[]): NeedItem[] {
  return gates
    .filter((g) => !g.ok)
    .map((g) => ({
      key: `gate:${g.key}`,
      kind: 'gate' as const,
      agent: g.agent,
      project: null,
      hub: g.hub,
      palace: null,
      since: g.since,
      title: `${g.label} gate (${g.event}): ${oneLine(g.problem ?? 'broken', 140)}`,
      detail: g.fix ? `fix: ${oneLine(g.fix, 160)}` : g.file,
      ref: g.key,
      link: '#/overview?panel=gates'
    }))
}

const KIND_ORDER = new Map(NEED_KINDS.map((k, i) => [k, i]))

/** Longest wait first; ties by kind (approvals first), then key. */
export function rank(items: NeedItem[]): NeedItem[] {
  return items.sort(
    (a, b) => Date.parse(a.since) - Date.parse(b.since) || KIND_ORDER.get(a.kind)! - KIND_ORDER.get(b.kind)! || a.key.localeCompare(b.key)
  )
}

/** Items per kind. */
export function countKinds(items: readonly NeedItem[]): NeedCounts {
  const counts = Object.fromEntries(NEED_KINDS.map((k) => [k, 0])) as NeedCounts
  for (const i of items) counts[i.kind]++
  return counts
}
