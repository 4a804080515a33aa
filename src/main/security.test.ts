import { describe, expect, it, vi } from 'vitest'
import type { WebContents } from 'electron'
import { META_CSP, parseCsp } from '../shared/csp'
import { resolveRendererTarget } from './app-url'
import {
  APP_CSP,
  cspFor,
  decideWindowOpen,
  devCsp,
  hardenWebContents,
  installSecurity,
  isAllowedNavigation,
  isSafeExternalUrl,
  withCspHeader,
  type SecurityDeps
} from './security'

const target = resolveRendererTarget({ isPackaged: true, devServerUrl: undefined, rendererRoot: '/opt/muster/out/renderer' })
const appUrl = target.url

describe('isSafeExternalUrl', () => {
  it('accepts https and mailto links', () => {
    expect(isSafeExternalUrl('https://github.com/org/repo/pull/1')).toBe(true)
    expect(isSafeExternalUrl('mailto:ops@example.com')).toBe(true)
  })
  it('rejects other schemes', () => {
    for (const url of [
      'http://example.com',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/html,x',
      'smb://host/share',
      'ms-msdt:/id',
      'vscode://x',
      'ftp://x.org'
    ]) {
      expect(isSafeExternalUrl(url), url).toBe(false)
    }
  })
  it('rejects credentials, whitespace, garbage and huge URLs', () => {
    expect(isSafeExternalUrl('https://user:pass@example.com/')).toBe(false)
    expect(isSafeExternalUrl('https://user@example.com/')).toBe(false)
    expect(isSafeExternalUrl('https://example.com/a b')).toBe(false)
    expect(isSafeExternalUrl(' https://example.com/')).toBe(false)
    expect(isSafeExternalUrl('https://example.com/\n')).toBe(false)
    expect(isSafeExternalUrl('not a url')).toBe(false)
    expect(isSafeExternalUrl('')).toBe(false)
    expect(isSafeExternalUrl(`https://example.com/${'a'.repeat(3000)}`)).toBe(false)
    expect(isSafeExternalUrl(42 as unknown as string)).toBe(false)
  })
})

describe('isAllowedNavigation', () => {
  it('allows only the app page', () => {
    expect(isAllowedNavigation(target, appUrl)).toBe(true)
    expect(isAllowedNavigation(target, `${appUrl}#/settings`)).toBe(true)
    expect(isAllowedNavigation(target, 'https://example.com')).toBe(false)
    expect(isAllowedNavigation(target, 'file:///tmp/evil.html')).toBe(false)
    expect(isAllowedNavigation(target, 'file:///opt/muster/out/renderer/index.html')).toBe(false)
    expect(isAllowedNavigation(target, 'app://muster/assets/index.js')).toBe(false)
  })
})

describe('decideWindowOpen', () => {
  it('always denies, opening only safe links externally', () => {
    expect(decideWindowOpen('https://example.com')).toEqual({ response: { action: 'deny' }, openExternally: true })
    expect(decideWindowOpen('file:///etc/passwd')).toEqual({ response: { action: 'deny' }, openExternally: false })
    expect(decideWindowOpen(appUrl)).toEqual({ response: { action: 'deny' }, openExternally: false })
  })
})

describe('CSP', () => {
  it('is the strict policy for the built app: nothing inline, no forms, frames, plugins or base', () => {
    expect(cspFor(target)).toBe(APP_CSP)
    expect(Object.fromEntries(parseCsp(APP_CSP))).toEqual({
      'default-src': ["'self'"],
      'script-src': ["'self'"],
      'style-src': ["'self'"],
      'img-src': ["'self'", 'data:'],
      'font-src': ["'self'", 'data:'],
      'connect-src': ["'self'"],
      // the installable web app: its service worker and manifest from the app itself only
      'worker-src': ["'self'"],
      'manifest-src': ["'self'"],
      'object-src': ["'none'"],
      'base-uri': ["'none'"],
      'form-action': ["'none'"],
      'frame-ancestors': ["'none'"]
    })
    expect(APP_CSP).not.toContain('unsafe')
  })
  it('the meta tag carries the same policy less what a meta tag cannot', () => {
    expect(META_CSP).toBe(APP_CSP.replace("; frame-ancestors 'none'", ''))
  })
  it('relaxes only inline scripts and styles and the HMR socket for the dev server', () => {
    const csp = parseCsp(devCsp('http://localhost:5173'))
    expect(csp.get('script-src')).toEqual(["'self'", "'unsafe-inline'"])
    expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"])
    expect(csp.get('connect-src')).toEqual(["'self'", 'ws://localhost:5173'])
    expect(csp.get('form-action')).toEqual(["'none'"])
    expect(devCsp('http://localhost:5173')).not.toContain('unsafe-eval')
  })
  it('replaces any existing CSP header whatever its case', () => {
    const out = withCspHeader(
      { 'content-security-policy': ['default-src *'], 'Content-Type': 'text/html', 'Content-Security-Policy-Report-Only': ['x'] },
      APP_CSP
    )
    expect(out).toEqual({ 'Content-Type': ['text/html'], 'Content-Security-Policy': [APP_CSP] })
    expect(withCspHeader(undefined, 'x')).toEqual({ 'Content-Security-Policy': ['x'] })
  })
})

type Listener = (...args: unknown[]) => unknown

function fakeContents() {
  const listeners = new Map<string, Listener>()
  let openHandler: ((d: { url: string }) => unknown) | undefined
  const contents = {
    on: (event: string, fn: Listener) => listeners.set(event, fn),
    setWindowOpenHandler: (fn: (d: { url: string }) => unknown) => (openHandler = fn)
  }
  const emit = (event: string, url?: string) => {
    const ev = { preventDefault: vi.fn() }
    listeners.get(event)?.(ev, url)
    return ev.preventDefault.mock.calls.length > 0
  }
  return { contents: contents as unknown as WebContents, emit, open: (url: string) => openHandler?.({ url }) }
}

describe('hardenWebContents', () => {
  it('blocks foreign navigation and redirects, allows the app page', () => {
    const f = fakeContents()
    hardenWebContents(f.contents, { shell: { openExternal: vi.fn() }, target, log: () => {} })
    expect(f.emit('will-navigate', 'https://evil.example')).toBe(true)
    expect(f.emit('will-redirect', 'https://evil.example')).toBe(true)
    expect(f.emit('will-navigate', appUrl)).toBe(false)
    expect(f.emit('will-attach-webview')).toBe(true)
  })
  it('denies new windows and opens only safe links externally', async () => {
    const f = fakeContents()
    const openExternal = vi.fn(() => Promise.resolve())
    hardenWebContents(f.contents, { shell: { openExternal }, target, log: () => {} })
    expect(f.open('https://example.com/docs')).toEqual({ action: 'deny' })
    expect(f.open('file:///etc/passwd')).toEqual({ action: 'deny' })
    expect(f.open('https://a:b@example.com')).toEqual({ action: 'deny' })
    expect(openExternal).toHaveBeenCalledTimes(1)
    expect(openExternal).toHaveBeenCalledWith('https://example.com/docs')
  })
  it('survives a failing openExternal', async () => {
    const f = fakeContents()
    const log = vi.fn()
    hardenWebContents(f.contents, { shell: { openExternal: () => Promise.reject(new Error('no browser')) }, target, log })
    f.open('https://example.com')
    await new Promise((r) => setTimeout(r, 0))
    expect(log).toHaveBeenCalledWith(expect.stringContaining('could not open'))
  })
})

describe('installSecurity', () => {
  it('grants only the permissions the app uses, sets the CSP and hardens new webContents', () => {
    let request: Listener | undefined
    let check: Listener | undefined
    let device: Listener | undefined
    let headers: Listener | undefined
    let created: Listener | undefined
    const deps = {
      app: { on: (event: string, fn: Listener) => event === 'web-contents-created' && (created = fn) },
      session: {
        setPermissionRequestHandler: (fn: Listener) => (request = fn),
        setPermissionCheckHandler: (fn: Listener) => (check = fn),
        setDevicePermissionHandler: (fn: Listener) => (device = fn),
        webRequest: { onHeadersReceived: (fn: Listener) => (headers = fn) }
      },
      shell: { openExternal: vi.fn() },
      target,
      log: () => {}
    } as unknown as SecurityDeps
    installSecurity(deps)

    const granted = vi.fn()
    request?.({}, 'media', granted, { requestingUrl: appUrl, isMainFrame: true })
    expect(granted).toHaveBeenLastCalledWith(false)
    request?.({}, 'clipboard-sanitized-write', granted, { requestingUrl: `${appUrl}#/patches`, isMainFrame: true })
    expect(granted).toHaveBeenLastCalledWith(true)
    expect(check?.({}, 'clipboard-read', 'app://muster', { isMainFrame: true })).toBe(false)
    expect(check?.({}, 'clipboard-sanitized-write', 'app://muster', { isMainFrame: true })).toBe(true)
    expect(device?.({})).toBe(false)

    const cb = vi.fn()
    headers?.({ url: appUrl, responseHeaders: { 'Content-Type': ['text/html'] } }, cb)
    expect(cb).toHaveBeenCalledWith({ responseHeaders: { 'Content-Type': ['text/html'], 'Content-Security-Policy': [APP_CSP] } })

    const f = fakeContents()
    created?.({}, f.contents)
    expect(f.emit('will-navigate', 'https://evil.example')).toBe(true)
  })
})
