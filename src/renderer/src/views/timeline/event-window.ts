/**
 * The paging engine behind the virtualised timeline: it never loads the whole stream, only pages
 * of rows around what is on screen, addressed by rowid (`seq`) cursors, and keeps at most
 * `maxPages` of them (least recently used are dropped; their boundaries are kept so they can be
 * fetched again exactly).
 *
 * Index space: display index 0 is the top row (the newest match in `desc`, the oldest in `asc`).
 * A snapshot is taken at `start()`; rows that arrive live later are kept in `extra` (above the
 * snapshot in `desc`, below it in `asc`) so cached pages never shift. In `desc`, live rows that
 * arrive while the operator is scrolled away wait in `pending` ("N new events") until shown.
 *
 * With no filter the hub's rowids are dense (the stream is append-only and never vacuumed), so any
 * page can be fetched directly from its index: dragging the scrollbar across 1,000,000 rows costs
 * one request per page that comes into view. With filters the length is unknown, so the list grows
 * one page at a time as the operator scrolls, always from a known neighbour's boundary.
 */

/** What the engine needs of a row. */
export interface WindowRow {
  id: string
  seq: number
}

/** A cursor: a rowid, and the event id when the anchor is a real row (not computed from density). */
export interface Anchor {
  seq: number
  id?: string
}

/** One page request: exclusive rowid bounds, order and size. */
export interface PageRequest {
  /** Exclusive upper bound. */
  before?: Anchor
  /** Exclusive lower bound. */
  since?: Anchor
  order: 'asc' | 'desc'
  limit: number
}

/** Fetches one page of matching rows, in the requested order. */
export type FetchPage<T extends WindowRow> = (req: PageRequest) => Promise<T[]>

/** Options of a window. */
export interface EventWindowOptions<T extends WindowRow> {
  fetch: FetchPage<T>
  order: 'asc' | 'desc'
  /**
   * True when no filter is set (rowids of the matches are dense) AND the transport takes numeric
   * rowid cursors: then any page can be fetched from its index alone.
   */
  dense: boolean
  /** Rows per page (100-200 keeps a request well under the 50 ms page budget). */
  pageSize?: number
  /** Pages kept in memory. */
  maxPages?: number
}

/** The state a view renders. */
export interface WindowSnapshot {
  status: 'loading' | 'ready' | 'error'
  error: unknown
  /** Rows the list shows (loaded or not). */
  count: number
  /** True when the end of the matches (in display order) is known. */
  complete: boolean
  /** Live rows not shown yet (desc, scrolled away). */
  pending: number
  /** Bumped on every change so React re-renders. */
  version: number
}

interface Page<T> {
  rows: T[]
  used: number
}

/** Default page size. */
export const PAGE_SIZE = 150
/** Default number of cached pages (~6,000 rows). */
export const MAX_PAGES = 40
/** Live rows kept above the snapshot before it is re-based (desc, at the top). */
const MAX_EXTRA = 600

/** A bounded, cursor-paged window over one query of the hub. */
export class EventWindow<T extends WindowRow> {
  private readonly fetchPage: FetchPage<T>
  readonly order: 'asc' | 'desc'
  private readonly dense: boolean
  private readonly pageSize: number
  private readonly maxPages: number

  private pages = new Map<number, Page<T>>()
  /** First and last seq of every page ever loaded (display order), kept after eviction. */
  private bounds = new Map<number, { first: Anchor; last: Anchor }>()
  private inFlight = new Set<number>()
  private wanted: number[] = []
  private tick = 0

  /** Rows in the snapshot (dense: exact; filtered: known so far). */
  private baseCount = 0
  private endKnown = false
  /** The newest and oldest seq of the snapshot (0 when empty). */
  private headSeq = 0
  private tailSeq = 0
  /** Newest row seen at all (snapshot or live): the cursor for live catch-up. */
  private newestSeq = 0
  private newestId: string | undefined
  private firstHead = Infinity
  private extra: T[] = []
  private pendingRows: T[] = []

  private state: WindowSnapshot = { status: 'loading', error: null, count: 0, complete: false, pending: 0, version: 0 }
  private listeners = new Set<() => void>()
  private disposed = false
  private starting: Promise<void> | null = null

  constructor(opts: EventWindowOptions<T>) {
    this.fetchPage = opts.fetch
    this.order = opts.order
    this.dense = opts.dense
    this.pageSize = opts.pageSize ?? PAGE_SIZE
    this.maxPages = opts.maxPages ?? MAX_PAGES
  }

  /** Subscribes to changes (for useSyncExternalStore). */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** The current snapshot (a stable object between changes). */
  getSnapshot = (): WindowSnapshot => this.state

  /** Stops fetching; in-flight answers are dropped (a later `start()` revives the window). */
  dispose(): void {
    this.disposed = true
  }

  /** Loads the first page and the far end of the stream (once; again only after an error). */
  start(): Promise<void> {
    this.disposed = false
    if (!this.starting) this.starting = this.load()
    return this.starting
  }

  private async load(): Promise<void> {
    const P = this.pageSize
    try {
      const [first, far] = await Promise.all([
        this.fetchPage({ order: this.order, limit: P }),
        this.fetchPage({ order: this.order === 'desc' ? 'asc' : 'desc', limit: 1 })
      ])
      if (this.disposed) return
      const farSeq = far[0]?.seq ?? 0
      const firstSeq = first[0]?.seq ?? 0
      this.headSeq = this.order === 'desc' ? firstSeq : farSeq
      this.tailSeq = this.order === 'desc' ? farSeq : firstSeq
      this.newestSeq = this.headSeq
      this.firstHead = this.headSeq
      this.newestId = this.order === 'desc' ? first[0]?.id : far[0]?.id
      if (first.length < P) {
        this.baseCount = first.length
        this.endKnown = true
      } else if (this.dense) {
        this.baseCount = this.headSeq - this.tailSeq + 1
        this.endKnown = true
      } else {
        this.baseCount = P
      }
      this.storePage(0, first)
      this.update({ status: 'ready', error: null })
    } catch (err) {
      this.starting = null
      if (!this.disposed) this.update({ status: 'error', error: err })
    }
  }

  /** The row at display index `i`, or undefined while its page loads. */
  rowAt(i: number): T | undefined {
    const top = this.order === 'desc' ? this.extra.length : 0
    if (i < top) return this.extra[top - 1 - i]
    const b = i - top
    if (b >= this.baseCount) return this.order === 'asc' ? this.extra[b - this.baseCount] : undefined
    const k = Math.floor(b / this.pageSize)
    const page = this.pages.get(k)
    if (!page) return undefined
    page.used = ++this.tick
    return page.rows[b - k * this.pageSize]
  }

  /** Display index of a row by id among loaded rows, or -1. */
  indexOf(id: string): number {
    const top = this.order === 'desc' ? this.extra.length : 0
    if (this.order === 'desc') {
      const e = this.extra.findIndex((r) => r.id === id)
      if (e >= 0) return top - 1 - e
    } else {
      const e = this.extra.findIndex((r) => r.id === id)
      if (e >= 0) return this.baseCount + e
    }
    for (const [k, page] of this.pages) {
      const j = page.rows.findIndex((r) => r.id === id)
      if (j >= 0) return top + k * this.pageSize + j
    }
    return -1
  }

  /** Tells the engine which display rows are on screen; it fetches what is missing around them. */
  ensureRange(start: number, end: number): void {
    if (this.state.status !== 'ready' || this.disposed) return
    const top = this.order === 'desc' ? this.extra.length : 0
    const P = this.pageSize
    const from = Math.max(0, Math.floor((start - top) / P) - 1)
    const to = Math.floor((Math.max(end, start) - top) / P) + 1
    const lastPage = Math.max(0, Math.ceil(this.baseCount / P) - 1)
    const want: number[] = []
    for (let k = from; k <= to; k++) {
      if (k > lastPage && !(k === lastPage + 1 && !this.endKnown)) continue
      if (k < 0) continue
      const page = this.pages.get(k)
      if (page) page.used = ++this.tick
      else if (!this.inFlight.has(k)) want.push(k)
    }
    // Nearest to the middle of the viewport first: a fast drag only pays for where it stops.
    const mid = (start + end) / 2 - top
    this.wanted = want.sort((a, b) => Math.abs(a * P - mid) - Math.abs(b * P - mid))
    this.pump()
  }

  /** Live rows written after the snapshot; `atTop` says whether the operator sees the top. */
  addLive(rows: readonly T[], atTop: boolean): void {
    const fresh = rows.filter((r) => r.seq > this.newestSeq).sort((a, b) => a.seq - b.seq)
    if (!fresh.length || this.state.status !== 'ready') return
    this.newestSeq = fresh[fresh.length - 1]!.seq
    this.newestId = fresh[fresh.length - 1]!.id
    if (this.order === 'asc') {
      if (this.endKnown) this.extra.push(...fresh)
      this.update({})
      return
    }
    if (atTop) {
      this.extra.push(...this.pendingRows, ...fresh)
      this.pendingRows = []
    } else {
      this.pendingRows.push(...fresh)
    }
    this.update({})
  }

  /** Shows the waiting live rows (the "N new events" pill). */
  showPending(): void {
    if (!this.pendingRows.length) return
    this.extra.push(...this.pendingRows)
    this.pendingRows = []
    this.update({})
  }

  /** The newest seq of the first snapshot: rows above it arrived live. */
  get snapshotHead(): number {
    return this.firstHead
  }

  /** The newest row the window knows (live catch-up cursor); null before the first page. */
  get cursor(): Anchor | null {
    return this.state.status === 'ready' ? { seq: this.newestSeq, id: this.newestId } : null
  }

  /** True when many live rows sit above the snapshot; call `rebase()` while at the top. */
  get wantsRebase(): boolean {
    return this.order === 'desc' && this.extra.length > MAX_EXTRA
  }

  /** Folds the live rows into the snapshot so they page like the rest (only call at the top). */
  rebase(): void {
    if (this.order !== 'desc' || !this.extra.length) return
    const P = this.pageSize
    const rows: T[] = [...this.extra].reverse()
    for (let k = 0; this.pages.has(k) && rows.length < MAX_EXTRA * 2 + P; k++) rows.push(...this.pages.get(k)!.rows)
    const shift = this.extra.length
    this.extra = []
    this.pages.clear()
    this.bounds.clear()
    this.headSeq = this.newestSeq
    this.baseCount += shift
    // Keep only whole pages, so boundaries stay exact.
    const whole = this.endKnown && rows.length >= this.baseCount ? rows.length : Math.floor(rows.length / P) * P
    for (let k = 0; k * P < whole; k++) this.storePage(k, rows.slice(k * P, Math.min(whole, (k + 1) * P)))
    if (!this.dense && !this.endKnown) this.baseCount = whole
    this.update({})
  }

  private pump(): void {
    // Two requests at a time: enough to keep up with scrolling, not enough to queue stale work.
    while (this.inFlight.size < 2 && this.wanted.length) {
      const k = this.wanted.shift()!
      if (this.pages.has(k) || this.inFlight.has(k)) continue
      const req = this.requestFor(k)
      if (!req) continue
      this.inFlight.add(k)
      void this.fetchPage(req.req)
        .then((rows) => {
          if (this.disposed) return
          this.storePage(k, req.reverse ? [...rows].reverse() : rows)
          if (!this.dense && !this.endKnown && k >= Math.ceil(this.baseCount / this.pageSize) - 1) {
            const known = k * this.pageSize + rows.length
            if (rows.length < this.pageSize) {
              this.baseCount = known
              this.endKnown = true
              if (this.order === 'asc') this.extra = []
            } else {
              this.baseCount = Math.max(this.baseCount, known)
            }
          }
          this.update({})
        })
        .catch((err: unknown) => {
          if (!this.disposed) this.update({ error: err })
        })
        .finally(() => {
          this.inFlight.delete(k)
          if (!this.disposed) this.pump()
        })
    }
  }

  /** How to fetch page k: from a neighbour's boundary, or straight from the rowid when dense. */
  private requestFor(k: number): { req: PageRequest; reverse: boolean } | null {
    const P = this.pageSize
    const desc = this.order === 'desc'
    const prev = this.bounds.get(k - 1)
    if (prev)
      return { req: desc ? { order: 'desc', limit: P, before: prev.last } : { order: 'asc', limit: P, since: prev.last }, reverse: false }
    const next = this.bounds.get(k + 1)
    if (next) {
      return { req: desc ? { order: 'asc', limit: P, since: next.first } : { order: 'desc', limit: P, before: next.first }, reverse: true }
    }
    if (k === 0 && !desc) return { req: { order: 'asc', limit: P }, reverse: false }
    if (this.dense) {
      return desc
        ? { req: { order: 'desc', limit: P, before: { seq: this.headSeq - k * P + 1 } }, reverse: false }
        : { req: { order: 'asc', limit: P, since: { seq: this.tailSeq + k * P - 1 } }, reverse: false }
    }
    return null
  }

  private storePage(k: number, rows: T[]): void {
    if (!rows.length) return
    this.pages.set(k, { rows, used: ++this.tick })
    const a = rows[0]!
    const z = rows[rows.length - 1]!
    this.bounds.set(k, { first: { seq: a.seq, id: a.id }, last: { seq: z.seq, id: z.id } })
    if (this.pages.size > this.maxPages) {
      let oldest: number | null = null
      let used = Infinity
      for (const [key, page] of this.pages) {
        // Page 0 stays: in desc it is the only page without a real anchor above it.
        if (key !== k && key !== 0 && page.used < used) {
          used = page.used
          oldest = key
        }
      }
      if (oldest !== null) this.pages.delete(oldest)
    }
  }

  private update(patch: Partial<WindowSnapshot>): void {
    const top = this.extra.length
    const count = this.baseCount + top + (!this.endKnown && !this.dense ? 1 : 0)
    this.state = {
      ...this.state,
      ...patch,
      count,
      complete: this.endKnown,
      pending: this.pendingRows.length,
      version: this.state.version + 1
    }
    for (const l of this.listeners) l()
  }
}
