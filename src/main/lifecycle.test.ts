import { describe, expect, it, vi } from 'vitest'
import { closeOnQuit, type QuitApp } from './lifecycle'

function fakeApp() {
  let listener: ((e: { preventDefault(): void }) => void) | undefined
  const quit = vi.fn<() => void>()
  const app: QuitApp & { requestQuit(): boolean; quit: typeof quit } = {
    on: (_event, fn) => (listener = fn),
    quit,
    requestQuit() {
      const e = { preventDefault: vi.fn() }
      listener?.(e)
      return e.preventDefault.mock.calls.length > 0
    }
  }
  return app
}

describe('closeOnQuit', () => {
  it('holds the quit until the service closed, once', async () => {
    const app = fakeApp()
    let finish: () => void = () => {}
    const close = vi.fn(() => new Promise<void>((r) => (finish = r)))
    closeOnQuit(app, close)
    expect(app.requestQuit()).toBe(true)
    expect(app.requestQuit()).toBe(true) // a second quit during the close is held too
    expect(close).toHaveBeenCalledTimes(1)
    expect(app.quit).not.toHaveBeenCalled()
    finish()
    await vi.waitFor(() => expect(app.quit).toHaveBeenCalledTimes(1))
    expect(app.requestQuit()).toBe(false) // now quitting proceeds
  })
  it('quits even when closing fails or stalls', async () => {
    const failing = fakeApp()
    closeOnQuit(failing, () => Promise.reject(new Error('db locked')), { log: () => {} })
    failing.requestQuit()
    await vi.waitFor(() => expect(failing.quit).toHaveBeenCalled())

    const stalled = fakeApp()
    const log = vi.fn()
    closeOnQuit(stalled, () => new Promise<void>(() => {}), { timeoutMs: 20, log })
    stalled.requestQuit()
    await vi.waitFor(() => expect(stalled.quit).toHaveBeenCalled())
    expect(log).toHaveBeenCalledWith(expect.stringContaining('did not close'))
  })
})
