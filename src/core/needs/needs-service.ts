/**
 * The needs-you queue: everything waiting on the operator, gathered through the hub service (tasks,
 * inbox, session state events), the approvals and patch services and the directive index, never
 * by reading a hub file itself. A watching service keeps the last queue, recomputes it when a
 * push or a write may have changed it (debounced; heartbeats never do), and pushes
 * `needs.changed` only when its items or unread counts changed, with what is new.
 */
import type { PushedEvent } from '../../shared/api'
import type { ApprovalItem } from '../../shared/contract/approvals-types'
import type { HubEventEnvelope } from '../../shared/contract/hub-types'
import { BROADCAST, EventType } from '../../shared/contract/hub-vocabulary'
import type { Directive, KeptEdit } from '../../shared/contract/muse'
import type { NeedItem, NeedKind, NeedsChanged, NeedsList, NeedSource } from '../../shared/contract/needs-types'
import type { PatchSummary } from '../../shared/contract/patch-types'
import { foldSessions, SESSION_EVENT } from '../../shared/contract/session-state'
import type { GateHealth } from '../../shared/contract/gates-types'
import type { HubSelection, HubService } from '../hub'
import {
  approvalNeed,
  budgetNeed,
  countKinds,
  directiveNeeds,
  gateNeeds,
  keptNeed,
  isDirect,
  messageNeeds,
  patchNeed,
  rank,
  sessionNeeds,
  taskNeeds,
  type HubWhere
} from './need-items'
import { writeNeedsSummary } from './summary-file'
import type { Budget } from '../../shared/contract/usage-types'

/** Direct unread events are read in pages of this size, at most this many pages. */
const PAGE = 500
const MAX_PAGES = 10
/** Session state events examined per hub (the newest). */
const SESSION_EVENTS = 500
/** A watching service recomputes this long after the first change of a burst. */
export const NEEDS_DEBOUNCE_MS = 120
/**
 * ...and at most this often: a busy hub pushes a batch every few hundred milliseconds, and each
 * computation reads every hub's tasks, patches, approvals and unread messages (thousands of rows
 * on a large hub): once a second keeps the queue fresh without keeping the process busy.
 */
export const NEEDS_MIN_GAP_MS = 1_000
/** ...and at least this often (stuck tasks and expiring approvals change with time alone). */
export const NEEDS_TICK_MS = 30_000
/**
 * A watching service computes its first queue this long after it starts, unless asked for it or
 * told of a change before: a service starts with a screen to serve, and the first queue (a read
 * of every hub, the approvals, the patches and the directive index) would delay the dashboard's
 * first requests.
 */
export const NEEDS_FIRST_MS = 3_000

/** Contract methods after which the queue may have changed without a hub push (or before it). */
const MUTATIONS: ReadonlySet<string> = new Set([
  'approvals.decide',
  'approvals.decideMany',
  'approvals.snooze',
  'projects.add',
  'projects.remove',
  'projects.scan',
  'projects.setKey',
  'demo.create',
  'settings.update',
  'hubs.add',
  'hubs.remove',
  'hub.append',
  'hub.ack',
  'hub.taskCreate',
  'hub.markRead',
  'muse.pickup',
  'muse.send',
  'muse.keptMerge',
  'muse.keptDiscard',
  'patch.apply',
  'patch.revert',
  'patch.commit',
  'patch.submit',
  'patch.cancel'
])

/** What the queue is built from. */
export interface NeedsSources {
  hubs: HubService
  /** Pending approval requests of one hub (throws when it cannot be read). */
  approvals(sel: HubSelection): Promise<ApprovalItem[]>
  /** The Patches inbox of one hub. */
  patches(sel: HubSelection): Promise<PatchSummary[]>
  /** Pending directives across the fleet. */
  directives(): Promise<Directive[]>
  /** The operator's budgets with what they count (none: no budget items). */
  budgets?(): Promise<Budget[]>
  /** Sends kept aside beside their role files (none: no such items). */
  kept?(): Promise<KeptEdit[]>
  /** The operator's agent id now. */
  operator(): string
  /** Roles the operator answers for (`ROLE` or `PROJECT/ROLE`). */
  operatorRoles(): readonly string[]
  /** The installed gates as last checked (cached: reading them costs nothing). */
  gates?(): readonly GateHealth[]
  /** Receives `needs.changed`; without it nothing is watched (CLI, tests). */
  emit?: (event: PushedEvent) => void
  /** Muster's home: each whole queue computed is summed up in its needs-summary.json (for `muster status`). */
  home?: string
}

/** One hub to read, and how items name it. */
interface Target {
  sel: HubSelection
  where: HubWhere
}

/** The queue of one process. */
export class NeedsService {
  private current: NeedsList | null = null
  private dirty = true
  private running: Promise<NeedsList> | null = null
  private timer: ReturnType<typeof setTimeout> | undefined
  /** True while `timer` is the start-up one (a change brings it forward). */
  private starting = false
  private tick: ReturnType<typeof setInterval> | undefined
  private closed = false
  /** When the last whole computation started (performance.now()). */
  private lastStart = -Infinity

  constructor(private readonly src: NeedsSources) {
    if (src.emit) {
      this.tick = setInterval(() => this.poke(), NEEDS_TICK_MS)
      this.tick.unref?.()
      this.dirty = true
      this.schedule(NEEDS_FIRST_MS, true)
    }
  }

  /** The queue (one hub when selected); a watching service answers the whole queue from its last computation when nothing changed since. */
  async list(sel: HubSelection & { kind?: readonly NeedKind[] } = {}): Promise<NeedsList> {
    const whole = !sel.hub && !sel.palace
    const list = whole && this.src.emit ? await this.latest() : await this.compute(sel)
    return sel.kind?.length ? narrow(list, new Set(sel.kind)) : list
  }

  /** The count and the longest-waiting item now (the desktop badge and tray read this). */
  async summary(): Promise<{ count: number; oldest: NeedItem | null }> {
    const l = await this.list()
    return { count: l.count, oldest: l.oldest }
  }

  /** Takes every pushed event; those that may change the queue schedule a recomputation. */
  onEvent(event: PushedEvent): void {
    if (event.name === 'needs.changed' || event.name === 'patch.output' || event.name === 'hub.inbox') return
    if (event.name === 'hub.events' && !event.payload.events.some(mayMatter)) return
    this.poke()
  }

  /** Tells the queue a contract method ran (writes that push nothing, such as registering a hub). */
  afterCall(method: string): void {
    if (MUTATIONS.has(method)) this.poke()
  }

  /** Schedules a recomputation (watching services only). */
  poke(): void {
    this.dirty = true
    if (!this.src.emit || this.closed) return
    if (this.starting) clearTimeout(this.timer)
    else if (this.timer !== undefined) return
    this.schedule(Math.max(NEEDS_DEBOUNCE_MS, this.lastStart + NEEDS_MIN_GAP_MS - performance.now()))
  }

  private schedule(ms: number, starting = false): void {
    this.starting = starting
    this.timer = setTimeout(() => {
      this.timer = undefined
      this.starting = false
      void this.latest().catch(() => undefined)
    }, ms)
  }

  /** The current whole queue: recomputed (once, shared) when something changed since the last. */
  private latest(): Promise<NeedsList> {
    if (this.running) return this.running.then(() => (this.dirty ? this.latest() : this.current!))
    if (!this.dirty && this.current) return Promise.resolve(this.current)
    this.dirty = false
    this.lastStart = performance.now()
    const run = this.compute({}).then(
      (next) => {
        this.running = null
        this.publish(next)
        return next
      },
      (err: unknown) => {
        this.running = null
        this.dirty = true
        throw err
      }
    )
    this.running = run
    return run
  }

  /** Keeps `next` and pushes what changed since the last queue (the first one notifies nothing). */
  private publish(next: NeedsList): void {
    const prev = this.current
    this.current = next
    if (!this.src.emit || this.closed) return
    const before = new Set(prev?.items.map((i) => i.key) ?? [])
    const now = new Set(next.items.map((i) => i.key))
    const added = prev ? next.items.filter((i) => !before.has(i.key)) : []
    const removed = prev ? [...before].filter((k) => !now.has(k)) : []
    const sameUnread = prev && prev.unread.direct === next.unread.direct && prev.unread.broadcast === next.unread.broadcast
    if (prev && !added.length && !removed.length && sameUnread && prev.oldest?.key === next.oldest?.key) return
    const payload: NeedsChanged = { count: next.count, oldest: next.oldest, added, removed, unread: next.unread, at: next.at }
    this.src.emit({ name: 'needs.changed', payload })
  }

  /** Reads every source now. */
  private async compute(sel: HubSelection): Promise<NeedsList> {
    const now = new Date()
    const operator = this.src.operator()
    const targets = await this.targets(sel)
    const whole = !sel.hub && !sel.palace
    const { budgets, kept } = this.src
    const [hubs, ...local] = await Promise.all([
      Promise.all(targets.map((t) => this.hubNeeds(t, operator))),
      whole ? this.directiveNeeds(now) : null,
      whole ? this.optional('budgets', budgets && (async () => (await budgets()).flatMap((b) => budgetNeed(b, now) ?? []))) : null,
      whole ? this.optional('kept sends', kept && (async () => (await kept()).map(keptNeed))) : null
    ])
    const gates = whole ? gateNeeds(this.src.gates?.() ?? []) : []
    const found = local.filter((l) => l !== null)
    const items = rank([...hubs.flatMap((h) => h.items), ...found.flatMap((l) => l.items), ...gates])
    const sources = [...hubs.map((h) => h.source), ...found.map((l) => l.source)]
    const list: NeedsList = {
      operator,
      items,
      count: items.length,
      counts: countKinds(items),
      oldest: items[0] ?? null,
      unread: {
        direct: hubs.reduce((n, h) => n + h.unread.direct, 0),
        broadcast: hubs.reduce((n, h) => n + h.unread.broadcast, 0)
      },
      sources,
      at: now.toISOString()
    }
    if (whole && this.src.home) writeNeedsSummary(this.src.home, list)
    return list
  }

  /** The selected hub, or every registered hub plus MemPalace's default when its file exists. */
  private async targets(sel: HubSelection): Promise<Target[]> {
    if (sel.hub || sel.palace) {
      const c = this.src.hubs.choose(sel)
      const registered = this.src.hubs.registry.find(c.name)
      return [{ sel, where: { hub: c.name, palace: c.location, linkHub: registered ? c.name : null } }]
    }
    const { hubs, default: def } = await this.src.hubs.listHubs()
    const out: Target[] = hubs.map((h) => ({ sel: { hub: h.name }, where: { hub: h.name, palace: h.palace, linkHub: h.name } }))
    if (!def.registered && def.exists)
      out.push({ sel: { palace: def.palace }, where: { hub: def.palace, palace: def.palace, linkHub: null } })
    return out
  }

  /** One hub's items and unread counts; a hub that cannot be read is reported, not fatal. */
  private async hubNeeds(t: Target, operator: string) {
    const source: NeedSource = {
      source: `hub ${t.where.hub}`,
      hub: t.where.hub,
      palace: t.where.palace,
      ok: true,
      error: null,
      unread: null
    }
    try {
      const hubs = this.src.hubs
      const [approvals, patches, tasks, inbox, sessions] = await Promise.all([
        this.src.approvals(t.sel),
        this.src.patches(t.sel),
        hubs.tasks({ ...t.sel }),
        this.unreadDirect(t.sel, operator),
        hubs.list({ ...t.sel, type: SESSION_EVENT.type, topic: SESSION_EVENT.topic, order: 'desc', limit: SESSION_EVENTS, preview: true })
      ])
      const waiting = patches.filter((p) => p.state === 'waiting')
      const patchThreads = new Set(waiting.map((p) => p.event.correlation_id).filter((c): c is string => !!c))
      const approvalSessions = new Set(approvals.map((a) => a.session_id).filter((s): s is string => !!s))
      const items = [
        ...approvals.map((a) => approvalNeed(t.where, a)),
        ...waiting.map((p) => patchNeed(t.where, p)),
        ...taskNeeds(t.where, tasks.tasks, operator, patchThreads),
        ...messageNeeds(t.where, inbox.direct),
        ...sessionNeeds(t.where, foldSessions(sessions.events), approvalSessions)
      ]
      return { items, unread: inbox.unread, source: { ...source, unread: inbox.unread } }
    } catch (err) {
      return { items: [], unread: { direct: 0, broadcast: 0 }, source: { ...source, ok: false, error: (err as Error).message } }
    }
  }

  /** Unread events addressed to the operator directly (after its inbox cursor), and the broadcasts apart. */
  private async unreadDirect(sel: HubSelection, operator: string) {
    const hubs = this.src.hubs
    const inbox = await hubs.inbox({ ...sel, limit: 1 })
    const after = inbox.cursor?.last_seq ?? 0
    const direct: HubEventEnvelope[] = []
    let before: number | undefined
    for (let page = 0; page < MAX_PAGES; page++) {
      const r = await hubs.list({
        ...sel,
        to_agent: operator,
        exclude_from_agent: operator,
        since_seq: after,
        ...(before !== undefined ? { before_seq: before } : {}),
        order: 'desc',
        limit: PAGE,
        preview: true
      })
      direct.push(...r.events.filter((e) => isDirect(e, operator)))
      const last = r.events[r.events.length - 1]
      if (!r.has_more || !last) break
      before = last.seq
    }
    return { direct, unread: { direct: direct.length, broadcast: Math.max(0, inbox.unread - direct.length) } }
  }

  private async directiveNeeds(now: Date) {
    const source: NeedSource = { source: 'directives', hub: null, palace: null, ok: true, error: null, unread: null }
    const roles = this.src.operatorRoles()
    if (!roles.length) return { items: [] as NeedItem[], source }
    try {
      return { items: directiveNeeds(await this.src.directives(), roles, now), source }
    } catch (err) {
      return { items: [] as NeedItem[], source: { ...source, ok: false, error: (err as Error).message } }
    }
  }

  /** Items of an optional source (none: null), or its error. */
  private async optional(source: string, read: (() => Promise<NeedItem[]>) | undefined) {
    const where: NeedSource = { source, hub: null, palace: null, ok: true, error: null, unread: null }
    if (!read) return null
    try {
      return { items: await read(), source: where }
    } catch (err) {
      return { items: [] as NeedItem[], source: { ...where, ok: false, error: (err as Error).message } }
    }
  }

  /** Stops watching. */
  close(): void {
    this.closed = true
    if (this.timer !== undefined) clearTimeout(this.timer)
    if (this.tick !== undefined) clearInterval(this.tick)
  }
}

/** Whether a new hub event may change the queue: everything but broadcast status (heartbeats, presence) that is not a session state. */
function mayMatter(e: HubEventEnvelope): boolean {
  return !(e.type === EventType.status && e.to_agent === BROADCAST && e.topic !== SESSION_EVENT.topic)
}

/** The queue cut to some kinds. */
function narrow(list: NeedsList, kinds: ReadonlySet<NeedKind>): NeedsList {
  const items = list.items.filter((i) => kinds.has(i.kind))
  return { ...list, items, count: items.length, counts: countKinds(items), oldest: items[0] ?? null }
}
