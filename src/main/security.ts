/**
 * Renderer hardening: navigation and new windows denied, vetted external links opened in the
 * browser, only the permissions the app uses granted (`permissions.ts`), a CSP on every response,
 * `<webview>` refused. The decisions are pure functions; `installSecurity` wires them onto the
 * Electron objects it is given.
 */
import type { App, Event, HandlerDetails, Session, Shell, WebContents, WindowOpenHandlerResponse } from 'electron'
import { APP_CSP } from '../shared/csp'
import { isAppUrl, type RendererTarget } from './app-url'
import { isPermissionAllowed } from './permissions'

export { APP_CSP }

/**
 * The CSP while developing against the Vite dev server: its React refresh preamble is an inline
 * script, its CSS arrives as `<style>` elements and HMR talks over a websocket on the dev
 * server's origin. Never used when packaged.
 */
export function devCsp(devOrigin: string): string {
  const ws = devOrigin.replace(/^http/, 'ws')
  return APP_CSP.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
    .replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
    .replace("connect-src 'self'", `connect-src 'self' ${ws}`)
}

/** The CSP for a renderer target. */
export function cspFor(target: RendererTarget): string {
  return target.kind === 'dev' ? devCsp(target.origin) : APP_CSP
}

/** Longest external URL we hand to the OS; anything longer is suspicious. */
const MAX_EXTERNAL_URL = 2048

/** True when a link may be opened outside the app: only `https:` and `mailto:`, no credentials. */
export function isSafeExternalUrl(url: string): boolean {
  if (typeof url !== 'string' || url.length === 0 || url.length > MAX_EXTERNAL_URL) return false
  // Control characters and whitespace have no business in a link we pass to the OS.
  for (let i = 0; i < url.length; i++) {
    const c = url.charCodeAt(i)
    if (c <= 0x20 || c === 0x7f) return false
  }
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return false
  }
  if (parsed.username || parsed.password) return false
  if (parsed.protocol === 'https:') return parsed.hostname.length > 0
  if (parsed.protocol === 'mailto:') return parsed.pathname.length > 0
  return false
}

/** True when the window may navigate to `url`: only to the app's own page. */
export function isAllowedNavigation(target: RendererTarget, url: string): boolean {
  return isAppUrl(target, url)
}

/** Decides a `window.open` / `target=_blank`: always deny; say whether to open it externally. */
export function decideWindowOpen(url: string): { response: WindowOpenHandlerResponse; openExternally: boolean } {
  return { response: { action: 'deny' }, openExternally: isSafeExternalUrl(url) }
}

/** Response headers with any existing CSP removed (whatever its case) and ours set. */
export function withCspHeader(headers: Record<string, string[] | string> | undefined, csp: string): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  for (const [name, value] of Object.entries(headers ?? {})) {
    const lower = name.toLowerCase()
    if (lower === 'content-security-policy' || lower === 'content-security-policy-report-only') continue
    out[name] = Array.isArray(value) ? value : [value]
  }
  out['Content-Security-Policy'] = [csp]
  return out
}

/** What the installers need from Electron. */
export interface SecurityDeps {
  app: Pick<App, 'on'>
  session: Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'setDevicePermissionHandler' | 'webRequest'>
  shell: Pick<Shell, 'openExternal'>
  target: RendererTarget
  /** Reports denied actions (default `console.warn`). */
  log?: (message: string) => void
}

/** Hardens one webContents: navigation, redirects, new windows, webviews. */
export function hardenWebContents(contents: WebContents, deps: Pick<SecurityDeps, 'shell' | 'target' | 'log'>): void {
  const log = deps.log ?? ((m: string) => console.warn(`[muster] ${m}`))
  const guardNavigation = (event: Event, url: string): void => {
    if (isAllowedNavigation(deps.target, url)) return
    event.preventDefault()
    log(`blocked navigation to ${truncate(url)}`)
  }
  contents.on('will-navigate', (event, url) => guardNavigation(event, url))
  contents.on('will-redirect', (event, url) => guardNavigation(event, url))
  contents.on('will-attach-webview', (event) => {
    event.preventDefault()
    log('blocked a <webview>')
  })
  contents.setWindowOpenHandler((details: HandlerDetails) => {
    const { response, openExternally } = decideWindowOpen(details.url)
    if (openExternally) {
      deps.shell.openExternal(details.url).catch((err: unknown) => log(`could not open ${truncate(details.url)}: ${String(err)}`))
    } else {
      log(`blocked new window for ${truncate(details.url)}`)
    }
    return response
  })
}

/**
 * Installs every app-wide guard: permissions decided by `isPermissionAllowed`, CSP header on every response of the app's
 * session, and `hardenWebContents` on every webContents ever created.
 */
export function installSecurity(deps: SecurityDeps): void {
  const { session, target } = deps
  const log = deps.log ?? ((m: string) => console.warn(`[muster] ${m}`))
  session.setPermissionRequestHandler((_wc, permission, callback, details) => {
    const allowed = isPermissionAllowed(target, { permission, requestingUrl: details.requestingUrl, isMainFrame: details.isMainFrame })
    if (!allowed) log(`denied the ${permission} permission to ${truncate(details.requestingUrl)}`)
    callback(allowed)
  })
  session.setPermissionCheckHandler((_wc, permission, requestingOrigin, details) =>
    isPermissionAllowed(target, { permission, requestingUrl: requestingOrigin, isMainFrame: details.isMainFrame })
  )
  session.setDevicePermissionHandler(() => false)
  const csp = cspFor(target)
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: withCspHeader(details.responseHeaders, csp) })
  })
  deps.app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, deps))
}

function truncate(url: string): string {
  return url.length > 200 ? `${url.slice(0, 200)}…` : url
}
