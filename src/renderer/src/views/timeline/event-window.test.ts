import { describe, expect, it } from 'vitest'
import { EventWindow, type PageRequest } from './event-window'

interface Row {
  id: string
  seq: number
}

/** A fake hub of `n` rows (seq 1..n); `keep` simulates a filter. Counts requests. */
function fakeHub(n: number, keep: (seq: number) => boolean = () => true) {
  const state = { n, requests: 0, biggest: 0 }
  const fetch = async (req: PageRequest): Promise<Row[]> => {
    state.requests++
    state.biggest = Math.max(state.biggest, req.limit)
    const out: Row[] = []
    if (req.order === 'desc') {
      for (let s = Math.min(state.n, (req.before?.seq ?? state.n + 1) - 1); s > (req.since?.seq ?? 0) && out.length < req.limit; s--) {
        if (keep(s)) out.push({ id: `e${s}`, seq: s })
      }
    } else {
      for (let s = (req.since?.seq ?? 0) + 1; s < Math.min(state.n + 1, req.before?.seq ?? Infinity) && out.length < req.limit; s++) {
        if (keep(s)) out.push({ id: `e${s}`, seq: s })
      }
    }
    return out
  }
  return { state, fetch }
}

const settle = () => new Promise((r) => setTimeout(r, 0))

async function loadRange(w: EventWindow<Row>, start: number, end: number) {
  for (let i = 0; i < 6; i++) {
    w.ensureRange(start, end)
    await settle()
  }
}

describe('EventWindow', () => {
  it('sizes an unfiltered million-row stream and jumps anywhere with a few page requests', async () => {
    const hub = fakeHub(1_000_000)
    const w = new EventWindow<Row>({ fetch: hub.fetch, order: 'desc', dense: true })
    await w.start()
    expect(w.getSnapshot().count).toBe(1_000_000)
    expect(w.rowAt(0)?.seq).toBe(1_000_000)
    const before = hub.state.requests
    await loadRange(w, 500_000, 500_030)
    expect(w.rowAt(500_000)?.seq).toBe(500_000)
    expect(w.rowAt(500_030)?.seq).toBe(499_970)
    expect(hub.state.requests - before).toBeLessThanOrEqual(4)
    expect(hub.state.biggest).toBeLessThanOrEqual(200)
    await loadRange(w, 999_980, 999_999)
    expect(w.rowAt(999_999)?.seq).toBe(1)
  })

  it('keeps a bounded cache', async () => {
    const hub = fakeHub(1_000_000)
    const w = new EventWindow<Row>({ fetch: hub.fetch, order: 'asc', dense: true, maxPages: 5 })
    await w.start()
    for (let i = 0; i < 40; i++) await loadRange(w, i * 20_000, i * 20_000 + 30)
    let loaded = 0
    for (let i = 0; i < 1_000_000; i += 150) if (w.rowAt(i)) loaded++
    expect(loaded).toBeLessThanOrEqual(5)
    expect(w.rowAt(0)?.seq).toBe(1)
  })

  it('grows a filtered list page by page from real anchors and finds its end', async () => {
    const hub = fakeHub(10_000, (s) => s % 7 === 0)
    const w = new EventWindow<Row>({ fetch: hub.fetch, order: 'desc', dense: false, pageSize: 100 })
    await w.start()
    expect(w.getSnapshot().complete).toBe(false)
    expect(w.getSnapshot().count).toBe(101)
    for (let i = 0; i < 20 && !w.getSnapshot().complete; i++) await loadRange(w, w.getSnapshot().count - 20, w.getSnapshot().count - 1)
    expect(w.getSnapshot().complete).toBe(true)
    expect(w.getSnapshot().count).toBe(Math.floor(10_000 / 7))
    expect(w.rowAt(1)?.seq).toBe(9_996 - 7)
    expect(w.rowAt(w.getSnapshot().count - 1)?.seq).toBe(7)
  })

  it('holds live rows as pending while scrolled away, and shows them on request', async () => {
    const hub = fakeHub(1_000)
    const w = new EventWindow<Row>({ fetch: hub.fetch, order: 'desc', dense: true })
    await w.start()
    w.addLive([{ id: 'e1001', seq: 1001 }], false)
    expect(w.getSnapshot().pending).toBe(1)
    expect(w.rowAt(0)?.seq).toBe(1000)
    w.showPending()
    expect(w.rowAt(0)?.seq).toBe(1001)
    w.addLive(
      [
        { id: 'e1002', seq: 1002 },
        { id: 'e1001', seq: 1001 }
      ],
      true
    )
    expect(w.getSnapshot().count).toBe(1002)
    expect(w.rowAt(0)?.seq).toBe(1002)
    expect(w.rowAt(2)?.seq).toBe(1000)
    expect(w.cursor).toEqual({ seq: 1002, id: 'e1002' })
  })

  it('re-bases many live rows into pages without losing order', async () => {
    const hub = fakeHub(1_000)
    const w = new EventWindow<Row>({ fetch: hub.fetch, order: 'desc', dense: true, pageSize: 100 })
    await w.start()
    hub.state.n = 1_700
    const live = Array.from({ length: 700 }, (_, i) => ({ id: `e${1001 + i}`, seq: 1001 + i }))
    w.addLive(live, true)
    expect(w.wantsRebase).toBe(true)
    w.rebase()
    expect(w.getSnapshot().count).toBe(1_700)
    expect(w.rowAt(0)?.seq).toBe(1_700)
    await loadRange(w, 1_600, 1_650)
    expect(w.rowAt(1_650)?.seq).toBe(50)
  })
})

describe('EventWindow live bursts (no rowid cursors)', () => {
  it('keeps every row, in order, through live bursts and a re-base', async () => {
    const hub = fakeHub(415)
    const w = new EventWindow<Row>({ fetch: hub.fetch, order: 'desc', dense: false, pageSize: 150 })
    await w.start()
    await loadRange(w, 0, 30)
    for (const n of [250, 230, 220]) {
      const from = hub.state.n + 1
      hub.state.n += n
      const rows = Array.from({ length: n }, (_, i) => ({ id: `e${from + i}`, seq: from + i }))
      w.addLive(rows, true)
      if (w.wantsRebase) w.rebase()
      await loadRange(w, 0, 30)
    }
    for (let i = 0; i < 30 && !w.getSnapshot().complete; i++) await loadRange(w, w.getSnapshot().count - 40, w.getSnapshot().count - 1)
    expect(w.getSnapshot().count).toBe(1115)
    for (let i = 0; i < 1115; i += 1) {
      if (!w.rowAt(i)) await loadRange(w, i, i + 30)
      expect(w.rowAt(i)?.seq).toBe(1115 - i)
    }
  })
})
