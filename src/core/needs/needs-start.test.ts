import { afterEach, describe, expect, it, vi } from 'vitest'
import type { PushedEvent } from '../../shared/api'
import type { HubService } from '../hub'
import { NEEDS_DEBOUNCE_MS, NEEDS_FIRST_MS, NEEDS_MIN_GAP_MS, NeedsService, type NeedsSources } from './needs-service'

/** A watching queue over no hubs that counts its computations (each reads the hub list once). */
function watching(): { q: NeedsService; computed: () => number; pushes: PushedEvent[] } {
  let computed = 0
  const pushes: PushedEvent[] = []
  const hubs = {
    listHubs: async () => {
      computed++
      return { hubs: [], default: { registered: false, exists: false, palace: '/nowhere' } }
    }
  } as unknown as HubService
  const src: NeedsSources = {
    hubs,
    approvals: async () => [],
    patches: async () => [],
    directives: async () => [],
    operator: () => 'me',
    operatorRoles: () => [],
    emit: (e) => pushes.push(e)
  }
  return { q: new NeedsService(src), computed: () => computed, pushes }
}

describe('a watching needs-you queue at start', () => {
  afterEach(() => vi.useRealTimers())

  it('computes its first queue NEEDS_FIRST_MS after start, not at once', async () => {
    vi.useFakeTimers()
    const { q, computed } = watching()
    await vi.advanceTimersByTimeAsync(NEEDS_DEBOUNCE_MS * 2)
    expect(computed()).toBe(0)
    await vi.advanceTimersByTimeAsync(NEEDS_FIRST_MS)
    expect(computed()).toBe(1)
    q.close()
  })

  it('asked before then, it computes at once, and the start-up timer finds nothing new to do', async () => {
    vi.useFakeTimers()
    const { q, computed } = watching()
    expect((await q.list()).count).toBe(0)
    expect(computed()).toBe(1)
    await vi.advanceTimersByTimeAsync(NEEDS_FIRST_MS * 2)
    expect(computed()).toBe(1)
    q.close()
  })

  it('a change before then brings the first computation forward to the usual debounce', async () => {
    vi.useFakeTimers()
    const { q, computed } = watching()
    q.afterCall('approvals.decide')
    await vi.advanceTimersByTimeAsync(NEEDS_DEBOUNCE_MS + 10)
    expect(computed()).toBe(1)
    q.close()
  })
})

describe('a watching needs-you queue on a busy hub', () => {
  afterEach(() => vi.useRealTimers())

  it('recomputes at most once per NEEDS_MIN_GAP_MS while batches keep arriving, and still does', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] })
    const { q, computed } = watching()
    const batch = {
      name: 'hub.events',
      payload: { hub: 'h', palace: '/h', events: [{ type: 'chat.message', to_agent: 'me', topic: null }] }
    } as unknown as PushedEvent
    const steps = 50 // a batch every 100 ms for 5 s
    for (let i = 0; i < steps; i++) {
      q.onEvent(batch)
      await vi.advanceTimersByTimeAsync(100)
    }
    const busyMs = steps * 100
    expect(computed()).toBeLessThanOrEqual(Math.ceil(busyMs / NEEDS_MIN_GAP_MS) + 1)
    expect(computed()).toBeGreaterThanOrEqual(Math.floor(busyMs / NEEDS_MIN_GAP_MS) - 1)
    q.close()
  })
})
