import { describe, expect, it, vi } from 'vitest'
import type { DeepLink } from '../shared/deep-link'
import { bringToFront, claimSingleInstance, protocolClientArgs, type SingleInstanceApp } from './single-instance'

type Listener = (...args: unknown[]) => void

function fakeApp(gotLock: boolean) {
  const listeners = new Map<string, Listener>()
  const app = {
    requestSingleInstanceLock: vi.fn(() => gotLock),
    quit: vi.fn(),
    on: (event: string, fn: Listener) => listeners.set(event, fn)
  }
  return {
    app: app as unknown as SingleInstanceApp & typeof app,
    emit: (event: string, ...args: unknown[]) => listeners.get(event)?.(...args),
    listeners
  }
}

describe('claimSingleInstance', () => {
  it('a second start quits at once and touches nothing else', () => {
    const f = fakeApp(false)
    const open = vi.fn()
    expect(claimSingleInstance({ app: f.app, argv: ['muster', 'muster://patch/p'], focus: vi.fn(), open })).toBeNull()
    expect(f.app.quit).toHaveBeenCalledTimes(1)
    expect(f.listeners.size).toBe(0)
    expect(open).not.toHaveBeenCalled()
  })

  it('the first instance comes forward when started again, and opens the link it was given', () => {
    const f = fakeApp(true)
    const focus = vi.fn(() => true)
    const opened: DeepLink[] = []
    const handle = claimSingleInstance({ app: f.app, argv: ['muster'], focus, open: (l) => (opened.push(l), true) })
    expect(handle).not.toBeNull()
    expect(f.app.quit).not.toHaveBeenCalled()
    f.emit('second-instance', {}, ['muster', '--home', '/x'])
    expect(focus).toHaveBeenCalledTimes(1)
    f.emit('second-instance', {}, ['muster', 'muster://approval/appr_1?hub=team'])
    expect(opened).toEqual([{ kind: 'approval', id: 'appr_1', hub: 'team' }])
  })

  it('keeps a link that arrives before the window (cold start, macOS open-url) until the window is ready', () => {
    const f = fakeApp(true)
    let ready = false
    const opened: DeepLink[] = []
    const open = (l: DeepLink): boolean => (ready ? (opened.push(l), true) : false)
    const handle = claimSingleInstance({ app: f.app, argv: ['muster', 'muster://thread/t1'], focus: () => ready, open })!
    const prevent = vi.fn()
    f.emit('open-url', { preventDefault: prevent }, 'muster://patch/p2')
    expect(prevent).toHaveBeenCalled()
    expect(opened).toEqual([])
    ready = true
    handle.windowReady()
    expect(opened).toEqual([{ kind: 'patch', id: 'p2', hub: null }]) // the newest link wins
    handle.windowReady()
    expect(opened).toHaveLength(1)
  })

  it('an open-url that is not a Muster item only brings the window forward', () => {
    const f = fakeApp(true)
    const focus = vi.fn(() => true)
    const open = vi.fn(() => true)
    const log = vi.fn()
    claimSingleInstance({ app: f.app, argv: [], focus, open, log })
    f.emit('open-url', { preventDefault: vi.fn() }, 'muster://../../etc/passwd')
    expect(open).not.toHaveBeenCalled()
    expect(focus).toHaveBeenCalled()
    expect(log).toHaveBeenCalledWith(expect.stringContaining('ignored'))
  })
})

describe('bringToFront', () => {
  it('restores a minimised window, shows and focuses it', () => {
    const calls: string[] = []
    const win = {
      isDestroyed: () => false,
      isMinimized: () => true,
      restore: () => calls.push('restore'),
      show: () => calls.push('show'),
      focus: () => calls.push('focus')
    }
    expect(bringToFront(win)).toBe(true)
    expect(calls).toEqual(['restore', 'show', 'focus'])
    expect(bringToFront(null)).toBe(false)
    expect(bringToFront({ ...win, isDestroyed: () => true })).toBe(false)
  })
})

describe('protocolClientArgs', () => {
  it('registers the installed app as is, and Electron with the app folder when run from source', () => {
    expect(protocolClientArgs({ defaultApp: false, execPath: '/opt/Muster/muster', argv: ['/opt/Muster/muster'] })).toEqual(['muster'])
    expect(protocolClientArgs({ defaultApp: true, execPath: '/x/electron', argv: ['/x/electron', '/src/muster'] })).toEqual([
      'muster',
      '/x/electron',
      ['/src/muster']
    ])
  })
})
