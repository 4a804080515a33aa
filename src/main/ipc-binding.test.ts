import { describe, expect, it, vi } from 'vitest'
import { ApiError, type PushedEvent } from '../shared/api'
import type { MusterService } from '../core/service-types'
import { CALL_CHANNEL, EVENT_CHANNEL } from '../preload/ipc-protocol'
import { bindService, createTrustedSenderCheck, forwardEvents, serializeError, type IpcCallEvent, type IpcMainLike } from './ipc-binding'

const APP = 'file:///opt/muster/out/renderer/index.html'

/** A window's webContents with its main frame, and events as Electron would build them. */
function fakeWindow(id: number, url = APP) {
  const mainFrame = { url }
  const sender = { id, mainFrame }
  return {
    fromMainFrame: (): IpcCallEvent => ({ sender, senderFrame: mainFrame }),
    fromSubframe: (subUrl = APP): IpcCallEvent => ({ sender, senderFrame: { url: subUrl } }),
    fromDestroyedFrame: (): IpcCallEvent => ({ sender, senderFrame: null })
  }
}

function fakeIpcMain() {
  const handlers = new Map<string, (event: IpcCallEvent, ...args: unknown[]) => unknown>()
  const ipcMain: IpcMainLike = {
    handle: (channel, listener) => {
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`)
      handlers.set(channel, listener)
    },
    removeHandler: (channel) => void handlers.delete(channel)
  }
  const invoke = (event: IpcCallEvent, ...args: unknown[]) => {
    const h = handlers.get(CALL_CHANNEL)
    if (!h) throw new Error('no handler')
    return Promise.resolve(h(event, ...args))
  }
  return { ipcMain, handlers, invoke }
}

function setup(impl: (method: string, input: unknown) => Promise<unknown> = async (method, input) => ({ method, input })) {
  const call = vi.fn(impl)
  const service = { call } as unknown as Pick<MusterService, 'call'>
  const ours = new Set([1])
  const isTrustedSender = createTrustedSenderCheck({ isAppUrl: (url) => url.split('#')[0] === APP, isOurWebContents: (id) => ours.has(id) })
  const ipc = fakeIpcMain()
  const log = vi.fn()
  const unbind = bindService(ipc.ipcMain, service, { isTrustedSender, log })
  return { ...ipc, call, log, unbind }
}

describe('bindService', () => {
  it('registers exactly one channel and can unbind', () => {
    const s = setup()
    expect([...s.handlers.keys()]).toEqual([CALL_CHANNEL])
    s.unbind()
    expect(s.handlers.size).toBe(0)
  })

  it('runs a call from our window main frame', async () => {
    const s = setup()
    const result = await s.invoke(fakeWindow(1).fromMainFrame(), 'projects.add', { path: ' /work/a ' })
    // The wrapper hands the core the parsed (trimmed) input.
    expect(result).toEqual({ ok: true, value: { method: 'projects.add', input: { path: '/work/a' } } })
    expect(s.call).toHaveBeenCalledWith('projects.add', { path: '/work/a' })
  })

  it('accepts an in-app route (hash) as the frame URL', async () => {
    const s = setup()
    const result = await s.invoke(fakeWindow(1, `${APP}#/settings`).fromMainFrame(), 'app.info', {})
    expect(result).toMatchObject({ ok: true })
  })

  it('rejects a subframe, even one showing our page', async () => {
    const s = setup()
    const result = await s.invoke(fakeWindow(1).fromSubframe(), 'app.info', {})
    expect(result).toEqual({ ok: false, error: expect.any(String), code: 'forbidden' })
    expect(s.call).not.toHaveBeenCalled()
    expect(s.log).toHaveBeenCalledWith(expect.stringContaining('subframe'))
  })

  it('rejects a destroyed frame (senderFrame null)', async () => {
    const s = setup()
    expect(await s.invoke(fakeWindow(1).fromDestroyedFrame(), 'app.info', {})).toMatchObject({ ok: false, code: 'forbidden' })
  })

  it('rejects a main frame showing a foreign URL', async () => {
    const s = setup()
    for (const url of ['https://evil.example/', 'file:///tmp/evil.html', 'about:blank']) {
      expect(await s.invoke(fakeWindow(1, url).fromMainFrame(), 'app.info', {})).toMatchObject({ ok: false, code: 'forbidden' })
    }
    expect(s.call).not.toHaveBeenCalled()
  })

  it('rejects a webContents we did not create', async () => {
    const s = setup()
    expect(await s.invoke(fakeWindow(2).fromMainFrame(), 'app.info', {})).toMatchObject({ ok: false, code: 'forbidden' })
  })

  it('treats a throwing sender check as untrusted', async () => {
    const ipc = fakeIpcMain()
    const call = vi.fn()
    bindService(ipc.ipcMain, { call } as never, {
      isTrustedSender: () => {
        throw new Error('boom')
      },
      log: () => {}
    })
    expect(await ipc.invoke(fakeWindow(1).fromMainFrame(), 'app.info', {})).toMatchObject({ ok: false, code: 'forbidden' })
    expect(call).not.toHaveBeenCalled()
  })

  it('rejects unknown method names', async () => {
    const s = setup()
    for (const method of ['fs.readFile', '__proto__', 'constructor', 'toString', 42, null, undefined, { toString: () => 'app.info' }]) {
      expect(await s.invoke(fakeWindow(1).fromMainFrame(), method, {})).toMatchObject({ ok: false, code: 'invalid_input' })
    }
    expect(s.call).not.toHaveBeenCalled()
  })

  it('rejects invalid payloads with invalid_input before the core sees them', async () => {
    const s = setup()
    const win = fakeWindow(1)
    const cases: [string, unknown][] = [
      ['projects.add', { path: 42 }],
      ['projects.add', { path: '' }],
      ['projects.add', { path: '/a', extra: true }],
      ['app.info', { sneaky: 1 }],
      ['projects.remove', 'name'],
      ['settings.update', { theme: 'neon' }]
    ]
    for (const [method, input] of cases) {
      const result = await s.invoke(win.fromMainFrame(), method, input)
      expect(result, `${method} ${JSON.stringify(input)}`).toMatchObject({ ok: false, code: 'invalid_input' })
      expect((result as { error: string }).error).toContain(method)
    }
    expect(s.call).not.toHaveBeenCalled()
  })

  it('treats a missing input as an empty object', async () => {
    const s = setup()
    expect(await s.invoke(fakeWindow(1).fromMainFrame(), 'projects.list')).toMatchObject({ ok: true })
  })

  it('preserves the code of a service ApiError', async () => {
    const s = setup(async () => {
      throw new ApiError('no project named x', 'not_found')
    })
    expect(await s.invoke(fakeWindow(1).fromMainFrame(), 'projects.remove', { name: 'x' })).toEqual({
      ok: false,
      error: 'no project named x',
      code: 'not_found'
    })
  })

  it('reports other errors as internal without a stack', async () => {
    const s = setup(async () => {
      throw new TypeError('cannot read x of undefined')
    })
    const result = await s.invoke(fakeWindow(1).fromMainFrame(), 'app.info', {})
    expect(result).toEqual({ ok: false, error: 'cannot read x of undefined', code: 'internal' })
    expect(JSON.stringify(result)).not.toContain('at ')
    expect(s.log).toHaveBeenCalledWith(expect.stringContaining('app.info failed'))
  })
})

describe('serializeError', () => {
  it('keeps codes of ApiError-shaped errors and defaults the rest to internal', () => {
    const lookalike = Object.assign(new Error('taken'), { name: 'ApiError', code: 'conflict' })
    expect(serializeError(lookalike)).toEqual({ ok: false, error: 'taken', code: 'conflict' })
    expect(serializeError(Object.assign(new Error('x'), { code: 'ENOENT' }))).toEqual({ ok: false, error: 'x', code: 'internal' })
    expect(serializeError('plain string')).toEqual({ ok: false, error: 'plain string', code: 'internal' })
    expect(serializeError(undefined)).toEqual({ ok: false, error: 'internal error', code: 'internal' })
    expect(serializeError(new Error('m'.repeat(5000))).error.length).toBeLessThan(2100)
  })
})

describe('forwardEvents', () => {
  it('sends every event to every live window and stops on unsubscribe', () => {
    let listener: ((e: PushedEvent) => void) | undefined
    const unsubscribe = vi.fn()
    const service = {
      subscribe: (fn: (e: PushedEvent) => void) => {
        listener = fn
        return unsubscribe
      }
    }
    const live = { isDestroyed: () => false, send: vi.fn() }
    const dead = { isDestroyed: () => true, send: vi.fn() }
    const broken = {
      isDestroyed: () => false,
      send: vi.fn(() => {
        throw new Error('gone')
      })
    }
    const log = vi.fn()
    const stop = forwardEvents(service, () => [broken, live, dead], log)
    listener?.({ name: 'projects.changed', payload: { at: '2026-01-01T00:00:00Z' } })
    expect(live.send).toHaveBeenCalledWith(EVENT_CHANNEL, { name: 'projects.changed', payload: { at: '2026-01-01T00:00:00Z' } })
    expect(dead.send).not.toHaveBeenCalled()
    expect(log).toHaveBeenCalledWith(expect.stringContaining('projects.changed'))
    stop()
    expect(unsubscribe).toHaveBeenCalledTimes(1)
  })
})
