/**
 * `muster serve`: the HTTP + Server-Sent Events binding of the service, serving the built renderer.
 *
 *   POST /api/call/<method>   JSON input -> JSON output, or {error, code} with 4xx/5xx
 *   GET  /api/events          SSE: `event: <name>` + `data: <json>` for every pushed event
 *   GET  /*                   the renderer's static files (index.html for unknown paths)
 *   GET  /manifest.webmanifest, /sw.js, /icons/*   the installable app (`web-app.ts`)
 *
 * Every request needs the token (bearer header, `?token=`, or the cookie set on the first page
 * load) and a loopback Host/Origin; anything else is refused before it reaches the service. The
 * installable app's manifest, icons and worker need the Host/Origin check only: a browser fetches
 * a manifest and its icons without cookies, and none of them holds anything of the operator's.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { ApiError, isMethodName, type ApiErrorCode } from '../shared/api'
import { APP_CSP } from '../shared/csp'
import type { MusterService } from '../core/service-types'
import { allowedHosts, foreignRequestReason, presentedToken, sameToken, TOKEN_COOKIE } from './auth'
import { isJsonContentType, MAX_REQUEST_BODY, readBody } from './request-body'
import { readStatic } from './static-files'
import { appShell, isWebAppPath, MANIFEST_PATH, webManifest, WORKER_PATH, workerSource } from './web-app'

/** Options for `startServer`. */
export interface ServerOptions {
  service: MusterService
  token: string
  host?: string
  port?: number
  /** Folder of the built renderer; when missing, pages answer with a build hint. */
  staticDir: string
  /** Interval of SSE keep-alive comments (ms). */
  pingMs?: number
  /** Most live `/api/events` streams at once (default MAX_SSE_CLIENTS). */
  maxSseClients?: number
  /** Serve HTTPS with this certificate and key (PEM), for a host beyond loopback. */
  tls?: { cert: string | Buffer; key: string | Buffer }
}

/** A running server. */
export interface RunningServer {
  url: string
  /** The URL to open, with the token. */
  openUrl: string
  port: number
  close(): Promise<void>
}

/**
 * Most concurrent SSE streams. The dashboard opens one per tab, and a browser keeps at most 6
 * HTTP/1.1 connections per origin, so one browser never needs more than 6; 32 leaves room for a
 * few browsers and scripts while bounding the sockets and buffered frames every push fans out to.
 */
export const MAX_SSE_CLIENTS = 32
/** How long a stopping server lets calls in progress answer for themselves before it answers them 503. */
const CALL_GRACE_MS = 300
/** Seconds a refused SSE client is told to wait (the dashboard's own backoff tops out at 10 s). */
const SSE_RETRY_AFTER_S = 10

/** HTTP status per error code. */
const STATUS: Record<ApiErrorCode, number> = {
  invalid_input: 400,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  internal: 500,
  unavailable: 503
}

/** Starts the server and resolves once it listens. */
export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const host = opts.host ?? '127.0.0.1'
  const sseClients = new Set<ServerResponse>()
  /** API calls not answered yet: a stopping server answers each with 503 at once. */
  const pending = new Set<ServerResponse>()
  let stopping = false
  let hosts = new Set<string>()

  const protocol = opts.tls ? 'https:' : 'http:'
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    handle(req, res).catch((err) => sendError(res, err))
  }
  const server: Server = opts.tls ? createHttpsServer({ cert: opts.tls.cert, key: opts.tls.key }, listener) : createServer(listener)

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    setSecurityHeaders(res)
    // under TLS the browser is told to never come back over plain HTTP (a year; no subdomains:
    // other services on the operator's LAN names are not Muster's to decide for)
    if (opts.tls) res.setHeader('Strict-Transport-Security', 'max-age=31536000')
    let url: URL
    try {
      url = new URL(req.url ?? '/', 'http://localhost')
    } catch {
      return sendJson(res, 400, { error: 'malformed request URL', code: 'invalid_input' })
    }
    const foreign = foreignRequestReason(req, hosts, protocol)
    if (foreign) return sendJson(res, 403, { error: `refused: ${foreign}`, code: 'forbidden' })
    // the manifest, its icons and the service worker need no token (nothing of the operator's in them)
    if (isWebAppPath(url.pathname)) return serveWebApp(req, res, url.pathname)
    const token = presentedToken(req, url)
    if (!token || !sameToken(token, opts.token)) {
      return sendJson(res, 401, { error: 'missing or wrong token: open the URL that `muster serve` printed', code: 'forbidden' })
    }
    if (url.pathname.startsWith('/api/call/')) return handleCall(req, res, url.pathname.slice('/api/call/'.length))
    if (url.pathname === '/api/events') return handleEvents(req, res)
    if (url.pathname.startsWith('/api/')) return sendJson(res, 404, { error: `no such endpoint ${url.pathname}`, code: 'not_found' })
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, { error: 'method not allowed', code: 'invalid_input' })
    if (url.searchParams.has('token')) {
      res.setHeader(
        'Set-Cookie',
        `${TOKEN_COOKIE}=${encodeURIComponent(opts.token)}; HttpOnly; SameSite=Strict; Path=/${opts.tls ? '; Secure' : ''}`
      )
    }
    const file = (await readStatic(opts.staticDir, url.pathname)) ?? (await readStatic(opts.staticDir, '/'))
    if (!file) {
      res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8' })
      res.end(`The dashboard is not built (${opts.staticDir} is missing). Run: npm run build`)
      return
    }
    res.writeHead(200, {
      'Content-Type': file.type,
      'Cache-Control': file.immutable ? 'private, max-age=31536000, immutable' : 'no-store'
    })
    res.end(req.method === 'HEAD' ? undefined : file.body)
  }

  async function serveWebApp(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, { error: 'method not allowed', code: 'invalid_input' })
    let type: string
    let body: string | Buffer
    if (path === MANIFEST_PATH) {
      type = 'application/manifest+json; charset=utf-8'
      body = JSON.stringify(webManifest())
    } else if (path === WORKER_PATH) {
      type = 'text/javascript; charset=utf-8'
      body = workerSource(await appShell(opts.staticDir))
      // its scope is the whole app (it is served at the root; said outright for the browser)
      res.setHeader('Service-Worker-Allowed', '/')
    } else {
      const file = await readStatic(opts.staticDir, path)
      if (!file) return sendJson(res, 404, { error: `no ${path} (the dashboard is not built?)`, code: 'not_found' })
      type = file.type
      body = file.body
    }
    // checked again on every start (a new build brings a new worker)
    res.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'no-cache' })
    res.end(req.method === 'HEAD' ? undefined : body)
  }

  async function handleCall(req: IncomingMessage, res: ServerResponse, method: string): Promise<void> {
    if (stopping) return sendStopping(res)
    pending.add(res)
    res.on('close', () => pending.delete(res))
    if (req.method !== 'POST') return sendJson(res, 405, { error: 'use POST', code: 'invalid_input' })
    if (!isMethodName(method)) return sendJson(res, 404, { error: `unknown method '${method}'`, code: 'not_found' })
    if (!isJsonContentType(req.headers['content-type'])) {
      return sendJson(res, 415, { error: 'Content-Type must be application/json', code: 'invalid_input' })
    }
    const body = await readBody(req, res)
    if ('tooLarge' in body) {
      res.setHeader('Connection', 'close')
      return sendJson(res, 413, { error: `request body over ${MAX_REQUEST_BODY / 1024 / 1024} MiB`, code: 'invalid_input' })
    }
    let input: unknown
    try {
      input = body.text.length ? JSON.parse(body.text) : {}
    } catch {
      return sendJson(res, 400, { error: 'request body is not valid JSON', code: 'invalid_input' })
    }
    const output = await opts.service.call(method, input)
    sendJson(res, 200, output)
  }

  function handleEvents(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'GET') return sendJson(res, 405, { error: 'use GET', code: 'invalid_input' })
    const cap = opts.maxSseClients ?? MAX_SSE_CLIENTS
    if (sseClients.size >= cap) {
      res.setHeader('Retry-After', String(SSE_RETRY_AFTER_S))
      return sendJson(res, 503, { error: `too many live event streams (${cap}); retry later`, code: 'internal' })
    }
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no'
    })
    res.write('retry: 1000\n: connected\n\n')
    sseClients.add(res)
    req.on('close', () => sseClients.delete(res))
  }

  const unsubscribe = opts.service.subscribe((event) => {
    const frame = `event: ${event.name}\ndata: ${JSON.stringify(event.payload)}\n\n`
    for (const res of sseClients) res.write(frame)
  })
  const ping = setInterval(() => {
    for (const res of sseClients) res.write(': ping\n\n')
  }, opts.pingMs ?? 15_000)
  ping.unref()

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const port = (server.address() as AddressInfo).port
  hosts = allowedHosts(host, port)
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host
  const url = `${protocol}//${shownHost}:${port}/`
  return {
    url,
    openUrl: `${url}?token=${opts.token}`,
    port,
    async close() {
      stopping = true
      clearInterval(ping)
      unsubscribe()
      // calls still running get a moment to answer for themselves (the service's close stops what
      // they were doing: an edit that changed nothing yet fails at once, one that did finishes); the
      // rest are answered 503 now
      for (let waited = 0; pending.size && waited < CALL_GRACE_MS; waited += 25) await new Promise((r) => setTimeout(r, 25))
      for (const res of pending) sendStopping(res)
      pending.clear()
      for (const res of sseClients) res.end()
      sseClients.clear()
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeIdleConnections()
      // the 503s leave before their sockets are closed
      await new Promise((r) => setTimeout(r, 50))
      server.closeAllConnections()
      await closed
    }
  }
}

/** 503 for a call the stopping server will not finish: retry it (a send with a `key` writes nothing twice). */
function sendStopping(res: ServerResponse): void {
  if (res.headersSent) return void res.end()
  res.setHeader('Connection', 'close')
  res.setHeader('Retry-After', '1')
  sendJson(res, 503, { error: 'muster serve is stopping: this call was not finished; try it again', code: 'unavailable' })
}

function setSecurityHeaders(res: ServerResponse): void {
  res.setHeader('Content-Security-Policy', APP_CSP)
  res.setHeader('X-Content-Type-Options', 'nosniff')
  res.setHeader('Referrer-Policy', 'no-referrer')
  res.setHeader('X-Frame-Options', 'DENY')
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin')
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin')
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return void res.end()
  const text = JSON.stringify(body)
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' })
  res.end(text)
}

function sendError(res: ServerResponse, err: unknown): void {
  if (err instanceof ApiError) return sendJson(res, STATUS[err.code], { error: err.message, code: err.code })
  const message = err instanceof Error ? err.message : String(err)
  sendJson(res, 500, { error: message, code: 'internal' })
}
