import { describe, expect, it, vi } from 'vitest'
import { CALL_CHANNEL, EVENT_CHANNEL } from './ipc-protocol'
import { createPreloadClient, looksLikeMethodName, type IpcRendererLike } from './client'

type Listener = (event: unknown, ...args: unknown[]) => void

function fakeIpc(reply: (method: unknown, input: unknown) => unknown = () => ({ ok: true, value: 'v' })) {
  const listeners = new Map<string, Set<Listener>>()
  const ipc = {
    invoke: vi.fn(async (_channel: string, method: unknown, input: unknown) => reply(method, input)),
    on: vi.fn((channel: string, fn: Listener) => {
      if (!listeners.has(channel)) listeners.set(channel, new Set())
      listeners.get(channel)?.add(fn)
    }),
    removeListener: vi.fn((channel: string, fn: Listener) => listeners.get(channel)?.delete(fn))
  } satisfies IpcRendererLike
  const push = (message: unknown) => {
    for (const fn of listeners.get(EVENT_CHANNEL) ?? []) fn({ sender: 'the ipc event' }, message)
  }
  return { ipc, push, count: () => listeners.get(EVENT_CHANNEL)?.size ?? 0 }
}

describe('call', () => {
  it('invokes muster:call with method and input and unwraps the value', async () => {
    const f = fakeIpc(() => ({ ok: true, value: [{ name: 'a' }] }))
    const client = createPreloadClient(f.ipc)
    await expect(client.call('projects.list', {})).resolves.toEqual([{ name: 'a' }])
    expect(f.ipc.invoke).toHaveBeenCalledWith(CALL_CHANNEL, 'projects.list', {})
  })

  it('sends {} for a missing input', async () => {
    const f = fakeIpc()
    await createPreloadClient(f.ipc).call('app.info', undefined as never)
    expect(f.ipc.invoke).toHaveBeenCalledWith(CALL_CHANNEL, 'app.info', {})
  })

  it('throws an Error carrying the code', async () => {
    const f = fakeIpc(() => ({ ok: false, error: 'no project named x', code: 'not_found' }))
    const err = await createPreloadClient(f.ipc)
      .call('projects.remove', { name: 'x' })
      .catch((e: unknown) => e)
    expect(err).toBeInstanceOf(Error)
    expect(err).toMatchObject({ message: 'no project named x', code: 'not_found', name: 'ApiError' })
  })

  it('reads malformed replies and unknown codes as internal', async () => {
    for (const reply of [undefined, null, 'x', { ok: 'yes' }, { ok: false, error: 'e', code: 'teapot' }]) {
      const f = fakeIpc(() => reply)
      await expect(createPreloadClient(f.ipc).call('app.info', {})).rejects.toMatchObject({ code: 'internal' })
    }
  })

  it('turns a failing invoke into an internal error', async () => {
    const f = fakeIpc(() => {
      throw new Error("No handler registered for 'muster:call'")
    })
    await expect(createPreloadClient(f.ipc).call('app.info', {})).rejects.toMatchObject({
      code: 'internal',
      message: expect.stringContaining('No handler')
    })
  })

  it('rejects method names that are not shaped like contract methods without IPC', async () => {
    const f = fakeIpc()
    const client = createPreloadClient(f.ipc)
    for (const bad of ['', 'x', '__proto__', 'a..b', 'fs.readFile;rm', 42, null]) {
      await expect(client.call(bad as never, {} as never)).rejects.toMatchObject({ code: 'invalid_input' })
    }
    expect(f.ipc.invoke).not.toHaveBeenCalled()
    expect(looksLikeMethodName('settings.update')).toBe(true)
  })
})

describe('callResult', () => {
  it('resolves the envelope instead of throwing', async () => {
    const f = fakeIpc(() => ({ ok: false, error: 'bad', code: 'invalid_input' }))
    await expect(createPreloadClient(f.ipc).callResult('projects.add', { path: '' })).resolves.toEqual({
      ok: false,
      error: 'bad',
      code: 'invalid_input'
    })
  })
})

describe('subscribe', () => {
  it('delivers { name, payload } and never the IPC event', () => {
    const f = fakeIpc()
    const client = createPreloadClient(f.ipc)
    const seen: unknown[][] = []
    client.subscribe((...args: unknown[]) => seen.push(args))
    f.push({ name: 'projects.changed', payload: { at: 't' }, extra: 'dropped' })
    expect(seen).toEqual([[{ name: 'projects.changed', payload: { at: 't' } }]])
  })

  it('ignores malformed pushes', () => {
    const f = fakeIpc()
    const listener = vi.fn()
    createPreloadClient(f.ipc).subscribe(listener)
    for (const m of [undefined, 'x', { payload: 1 }, { name: 3, payload: 1 }, { name: 'a' }]) f.push(m)
    expect(listener).not.toHaveBeenCalled()
  })

  it('unsubscribe removes exactly that listener, once', () => {
    const f = fakeIpc()
    const client = createPreloadClient(f.ipc)
    const a = vi.fn()
    const b = vi.fn()
    const offA = client.subscribe(a)
    const offA2 = client.subscribe(a) // same function twice: two independent subscriptions
    client.subscribe(b)
    expect(f.count()).toBe(3)
    offA()
    offA()
    expect(f.count()).toBe(2)
    f.push({ name: 'projects.changed', payload: { at: 't' } })
    expect(a).toHaveBeenCalledTimes(1)
    expect(b).toHaveBeenCalledTimes(1)
    offA2()
    expect(f.count()).toBe(1)
  })

  it('keeps other listeners running when one throws', () => {
    const f = fakeIpc()
    const onListenerError = vi.fn()
    const client = createPreloadClient(f.ipc, { onListenerError })
    const ok = vi.fn()
    client.subscribe(() => {
      throw new Error('bad listener')
    })
    client.subscribe(ok)
    f.push({ name: 'projects.changed', payload: { at: 't' } })
    expect(ok).toHaveBeenCalledTimes(1)
    expect(onListenerError).toHaveBeenCalledTimes(1)
  })

  it('refuses a non-function listener', () => {
    expect(() => createPreloadClient(fakeIpc().ipc).subscribe('nope' as never)).toThrow(TypeError)
  })
})
