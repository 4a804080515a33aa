/**
 * The `app://muster/` scheme that serves the built renderer to the window, instead of `file://`
 * (which would give the page the run of the disk and, with the GrantFileProtocolExtraPrivileges
 * fuse off, would not work anyway). Registered privileged (standard, secure, fetch) before the app
 * is ready; the handler is a plain `Request -> Response` function so it is tested without
 * Electron. Files come only from the renderer folder: traversal (also percent-encoded) and
 * symbolic links that lead out of it are refused like a missing file, with a 404.
 */
import type { CustomScheme } from 'electron'
import { APP_CSP } from '../shared/csp'
import { readStatic } from '../server/static-files'
import { APP_HOST, APP_SCHEME } from './app-url'

/** What `protocol.registerSchemesAsPrivileged` gets, before `ready`. */
export const PRIVILEGED_SCHEMES: CustomScheme[] = [
  {
    scheme: APP_SCHEME,
    // standard: relative URLs, an origin of its own (storage, 'self' in the CSP);
    // secure: a secure context like https; supportFetchAPI: the page's own fetches;
    // codeCache: V8 caches the app's scripts across starts. No CORS, no service workers, no bypassing the CSP.
    privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true }
  }
]

/** Options for `createAppProtocolHandler`. */
export interface AppProtocolOptions {
  /** The built renderer folder (`out/renderer`). */
  root: string
  /** The policy sent with every response (default: the app's). */
  csp?: string
}

/** Headers every answer carries. */
function baseHeaders(csp: string): Record<string, string> {
  return {
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Resource-Policy': 'same-origin'
  }
}

function plain(status: number, text: string, csp: string, extra: Record<string, string> = {}): Response {
  return new Response(text, { status, headers: { ...baseHeaders(csp), 'Content-Type': 'text/plain; charset=utf-8', ...extra } })
}

/**
 * The handler for `protocol.handle('app', …)`: GET/HEAD of a file under `root` on host `muster`,
 * with its MIME type and the CSP; 404 for anything else found or not, 405 for other methods.
 */
export function createAppProtocolHandler({ root, csp = APP_CSP }: AppProtocolOptions): (request: Request) => Promise<Response> {
  return async (request) => {
    let url: URL
    try {
      url = new URL(request.url)
    } catch {
      return plain(400, 'Bad request', csp)
    }
    if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST || url.username || url.password) return plain(404, 'Not found', csp)
    if (request.method !== 'GET' && request.method !== 'HEAD') return plain(405, 'Method not allowed', csp, { Allow: 'GET, HEAD' })
    const file = await readStatic(root, url.pathname)
    if (!file) return plain(404, 'Not found', csp)
    const headers = {
      ...baseHeaders(csp),
      'Content-Type': file.type,
      'Content-Length': String(file.body.length),
      // hashed asset names never change content; the page itself is read fresh
      'Cache-Control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache'
    }
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(file.body), { status: 200, headers })
  }
}
