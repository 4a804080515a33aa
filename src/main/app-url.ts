/**
 * Where the app's own pages live, and the one predicate that says whether a URL is one of them.
 * Navigation, IPC sender checks and the CSP all rely on it. The built renderer is served from the
 * privileged `app://muster/` scheme (`app-protocol.ts`), never from `file://`.
 */

/** The custom scheme of the app's pages. */
export const APP_SCHEME = 'app'
/** The one host of that scheme: anything else is not the app. */
export const APP_HOST = 'muster'
/** The page the window loads. */
export const APP_INDEX_URL = `${APP_SCHEME}://${APP_HOST}/index.html`

/**
 * The page the window loads: the built renderer over `app://` (files under `root`) or, in
 * development only, the dev server.
 */
export type RendererTarget = { kind: 'app'; root: string; url: string } | { kind: 'dev'; url: string; origin: string }

/** Inputs for `resolveRendererTarget`. */
export interface RendererTargetInput {
  /** `app.isPackaged`: a packaged app never follows a dev server URL from the environment. */
  isPackaged: boolean
  /** `process.env.ELECTRON_RENDERER_URL`, set by `electron-vite dev`. */
  devServerUrl: string | undefined
  /** Absolute path of the built renderer folder (`out/renderer`). */
  rendererRoot: string
}

/** Picks what the window loads. The dev server is trusted only unpackaged and only on loopback http. */
export function resolveRendererTarget({ isPackaged, devServerUrl, rendererRoot }: RendererTargetInput): RendererTarget {
  if (!isPackaged && devServerUrl) {
    const url = parseUrl(devServerUrl)
    if (url && url.protocol === 'http:' && isLoopbackHost(url.hostname) && !url.username && !url.password) {
      return { kind: 'dev', url: url.href, origin: url.origin }
    }
  }
  return { kind: 'app', root: rendererRoot, url: APP_INDEX_URL }
}

/** True for localhost names and loopback addresses. */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname)
}

/** True when `url` is on the app's own origin (`app://muster`, no credentials or port). */
export function isAppOrigin(url: string): boolean {
  const parsed = parseUrl(url)
  // `app:` is not a scheme WHATWG URL knows, so its `origin` is "null": compare the parts.
  return !!parsed && parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST && !parsed.username && !parsed.password
}

/**
 * True when `url` is one of the app's pages: for the built app exactly `app://muster/index.html`
 * (or `/`, any query or hash), for the dev server any path on its origin.
 */
export function isAppUrl(target: RendererTarget, url: string): boolean {
  const parsed = parseUrl(url)
  if (!parsed) return false
  if (target.kind === 'dev') return parsed.origin === target.origin
  return isAppOrigin(url) && (parsed.pathname === '/index.html' || parsed.pathname === '/')
}

function parseUrl(url: string): URL | null {
  try {
    return new URL(url)
  } catch {
    return null
  }
}
