/**
 * Where the app's own pages live, and the one predicate that says whether a URL is one of them.
 * Navigation, IPC sender checks and the CSP all rely on it.
 */
import { pathToFileURL } from 'node:url'

/** The page the window loads: the built `index.html` or, in development only, the dev server. */
export type RendererTarget = { kind: 'file'; file: string; url: string } | { kind: 'dev'; url: string; origin: string }

/** Inputs for `resolveRendererTarget`. */
export interface RendererTargetInput {
  /** `app.isPackaged`: a packaged app never follows a dev server URL from the environment. */
  isPackaged: boolean
  /** `process.env.ELECTRON_RENDERER_URL`, set by `electron-vite dev`. */
  devServerUrl: string | undefined
  /** Absolute path of the built `out/renderer/index.html`. */
  rendererFile: string
}

/** Picks what the window loads. The dev server is trusted only unpackaged and only on loopback http. */
export function resolveRendererTarget({ isPackaged, devServerUrl, rendererFile }: RendererTargetInput): RendererTarget {
  if (!isPackaged && devServerUrl) {
    const url = parseUrl(devServerUrl)
    if (url && url.protocol === 'http:' && isLoopbackHost(url.hostname) && !url.username && !url.password) {
      return { kind: 'dev', url: url.href, origin: url.origin }
    }
  }
  return { kind: 'file', file: rendererFile, url: pathToFileURL(rendererFile).href }
}

/** True for localhost names and loopback addresses. */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname)
}

/**
 * True when `url` is one of the app's pages: for the built app exactly the `index.html` file
 * (any query or hash), for the dev server any path on its origin.
 */
export function isAppUrl(target: RendererTarget, url: string): boolean {
  const parsed = parseUrl(url)
  if (!parsed) return false
  if (target.kind === 'dev') return parsed.origin === target.origin
  const expected = parseUrl(target.url)
  if (!expected || parsed.protocol !== 'file:') return false
  // file: URLs have an opaque origin, so compare host + path (ignoring query and hash).
  return parsed.host === expected.host && samePath(parsed.pathname, expected.pathname)
}

function samePath(a: string, b: string): boolean {
  try {
    const da = decodeURIComponent(a)
    const db = decodeURIComponent(b)
    // Windows drive letters and paths are case-insensitive.
    return process.platform === 'win32' ? da.toLowerCase() === db.toLowerCase() : da === db
  } catch {
    return false
  }
}

function parseUrl(url: string): URL | null {
  try {
    return new URL(url)
  } catch {
    return null
  }
}
