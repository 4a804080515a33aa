/**
 * The JSON-RPC side of a MemPalace hub server (spec/hub-logstream.md section 8): `POST <url>/mcp`
 * with a bearer token, `tools/call` of the logstream tools and `tools/list`. Results arrive as
 * `{"content":[{"type":"text","text":"<JSON>"}]}`; a tool's own refusal is a result
 * (`{"error": ...}` or `{"success": false, "error": ...}`), a protocol problem is a JSON-RPC error
 * (-32602 unknown/missing argument, -32601 unknown tool, -32003 read-only server, -32000 tool crash).
 * Every failure becomes a `RemoteCallError` (an ApiError) carrying the HTTP status / JSON-RPC code.
 *
 * Why not the MCP SDK's client: upstream's `/mcp` is plain stateless JSON-RPC over POST, not the
 * Streamable HTTP transport the SDK speaks (no session, no initialize needed, `GET /mcp` is 404,
 * so the SDK's stream probe fails), and we use two methods. A fetch with zod-checked envelopes is
 * smaller than the SDK's 17 runtime dependencies (express, hono, ...) in the desktop app.
 */
import { z } from 'zod'
import { ApiError, type ApiErrorCode } from '../../../shared/api-error'
import { pyDumps } from '../../../shared/py-json'
import { parseHubJson } from './remote-json'

/** JSON-RPC codes upstream uses. */
export const RpcCode = { invalidParams: -32602, unknownMethod: -32601, readOnly: -32003, internal: -32000 } as const

/** A failed call to a hub server: an ApiError plus what the server said. */
export class RemoteCallError extends ApiError {
  constructor(
    message: string,
    code: ApiErrorCode,
    readonly detail: { httpStatus?: number; rpcCode?: number; retryAfterMs?: number | null; unreachable?: boolean } = {}
  ) {
    super(message, code)
    this.name = 'RemoteCallError'
  }
}

/** How to reach one hub server. */
export interface RemoteEndpoint {
  /** Normalised base URL (no trailing slash). */
  url: string
  /** Bearer token, or null for a token-less loopback server. */
  token: string | null
}

/** Per-call options. */
export interface CallOptions {
  signal?: AbortSignal
  /** Default 30 s; `wait` passes its own timeout plus a margin. */
  timeoutMs?: number
}

const DEFAULT_TIMEOUT_MS = 30_000
/** Largest `/mcp` reply read (500 events of 64 KiB metadata fit many times over); more is refused. */
export const MAX_MCP_BODY_BYTES = 64 * 1024 * 1024

/**
 * Reads a reply body as text, refusing one larger than `max` bytes (stops reading there): a server
 * that streams 600 MB must not balloon this process.
 */
export async function readCapped(res: Response, url: string, max = MAX_MCP_BODY_BYTES): Promise<string> {
  const declared = Number(res.headers.get('content-length'))
  const tooLarge = (): RemoteCallError =>
    new RemoteCallError(`hub server ${url} sent a reply larger than ${max / 1024 / 1024} MiB; it was not read`, 'internal', {
      httpStatus: res.status
    })
  if (Number.isFinite(declared) && declared > max) {
    await res.body?.cancel().catch(() => {})
    throw tooLarge()
  }
  if (!res.body) return ''
  const reader = res.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > max) {
      await reader.cancel().catch(() => {})
      throw tooLarge()
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}

const RpcResponse = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string(), z.number(), z.null()]).optional(),
  result: z.unknown().optional(),
  error: z.object({ code: z.number(), message: z.string(), data: z.unknown().optional() }).optional()
})
const ToolResult = z.object({ content: z.array(z.object({ type: z.string(), text: z.string().optional() })).min(1) })
const ToolList = z.object({
  tools: z.array(
    z.object({
      name: z.string(),
      inputSchema: z
        .object({ properties: z.record(z.string(), z.unknown()).optional() })
        .passthrough()
        .optional()
    })
  )
})

/** A tool as `tools/list` describes it: its name and the argument names it accepts. */
export interface ToolInfo {
  name: string
  arguments: Set<string>
}

/** The network error behind a failed fetch, in words (never the request, which holds the token). */
export function describeNetworkError(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause
  const code = cause?.code ?? (err as { code?: string }).code
  if ((err as Error).name === 'TimeoutError') return 'no answer (timed out)'
  if (code === 'ECONNREFUSED') return 'connection refused'
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found'
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection reset'
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') return 'connection timed out'
  return cause?.message ?? (err as Error).message ?? 'network error'
}

/** Seconds or an HTTP date in `Retry-After`, as milliseconds (null when absent or unreadable). */
export function retryAfterMs(header: string | null): number | null {
  if (!header) return null
  const s = Number(header.trim())
  if (Number.isFinite(s) && s >= 0) return s * 1000
  const at = Date.parse(header)
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : null
}

/** The error of a non-2xx answer from a hub server (the token is never part of it). */
export function httpError(url: string, status: number, statusText: string, retryAfter: string | null, body = ''): RemoteCallError {
  const detail = { httpStatus: status, retryAfterMs: retryAfterMs(retryAfter) }
  if (status === 401)
    return new RemoteCallError(`hub server ${url} refused the token (HTTP 401): check the hub's token file`, 'forbidden', detail)
  if (status === 403)
    return new RemoteCallError(`hub server ${url} refused the request (HTTP 403: host or origin not allowed)`, 'forbidden', detail)
  if (status === 503) {
    const wait = detail.retryAfterMs !== null ? `, retry after ${Math.round(detail.retryAfterMs / 1000)} s` : ''
    return new RemoteCallError(`hub server ${url} is busy (HTTP 503: too many live-stream clients${wait})`, 'conflict', detail)
  }
  let said: unknown
  try {
    said = (JSON.parse(body) as { error?: unknown }).error
  } catch {
    said = undefined
  }
  const why = typeof said === 'string' ? `: ${said}` : statusText ? ` ${statusText}` : ''
  return new RemoteCallError(`hub server ${url} answered HTTP ${status}${why}`, status === 400 ? 'invalid_input' : 'internal', detail)
}

/** Headers of every request: the bearer token when there is one. */
export function authHeaders(endpoint: RemoteEndpoint, extra: Record<string, string> = {}): Record<string, string> {
  return endpoint.token ? { ...extra, Authorization: `Bearer ${endpoint.token}` } : extra
}

/** Combines the caller's signal with a timeout. */
export function withTimeout(signal: AbortSignal | undefined, ms: number): AbortSignal {
  const timeout = AbortSignal.timeout(ms)
  return signal ? AbortSignal.any([signal, timeout]) : timeout
}

/** A JSON-RPC client of one hub server's `/mcp`. */
export class McpClient {
  private nextId = 1

  constructor(
    private readonly endpoint: RemoteEndpoint,
    /** Each call's timeout unless it gives its own (the hook uses a short one). */
    private readonly defaultTimeoutMs = DEFAULT_TIMEOUT_MS
  ) {}

  /** Sends one JSON-RPC request and returns its `result` (errors thrown as RemoteCallError). */
  async rpc(method: string, params: Record<string, unknown>, opts: CallOptions = {}): Promise<unknown> {
    const { url } = this.endpoint
    let res: Response
    try {
      res = await fetch(`${url}/mcp`, {
        method: 'POST',
        headers: authHeaders(this.endpoint, { 'Content-Type': 'application/json', Accept: 'application/json' }),
        // pyDumps, not JSON.stringify: metadata given as text keeps ints past 2^53 and 1.0 exact.
        body: pyDumps({ jsonrpc: '2.0', id: this.nextId++, method, params }, { allowNan: false, loneSurrogates: 'escape' }),
        signal: withTimeout(opts.signal, opts.timeoutMs ?? this.defaultTimeoutMs)
      })
    } catch (err) {
      if (opts.signal?.aborted) throw new RemoteCallError(`call to hub server ${url} was cancelled`, 'conflict')
      throw new RemoteCallError(`cannot reach hub server ${url}: ${describeNetworkError(err)}`, 'conflict', { unreachable: true })
    }
    let text: string
    try {
      text = await readCapped(res, url)
    } catch (err) {
      if (err instanceof RemoteCallError) throw err
      if (opts.signal?.aborted) throw new RemoteCallError(`call to hub server ${url} was cancelled`, 'conflict')
      throw new RemoteCallError(`lost the reply of hub server ${url}: ${describeNetworkError(err)}`, 'conflict', { unreachable: true })
    }
    if (!res.ok && !text.trim().startsWith('{')) throw httpError(url, res.status, res.statusText, res.headers.get('retry-after'))
    let parsed: z.infer<typeof RpcResponse>
    try {
      parsed = RpcResponse.parse(JSON.parse(text))
    } catch {
      if (!res.ok) throw httpError(url, res.status, res.statusText, res.headers.get('retry-after'), text)
      throw new RemoteCallError(`hub server ${url} sent a reply that is not JSON-RPC (is ${url} a MemPalace hub?)`, 'internal', {
        httpStatus: res.status
      })
    }
    if (parsed.error) {
      const { code, message } = parsed.error
      const api: ApiErrorCode = code === RpcCode.readOnly ? 'forbidden' : code === RpcCode.invalidParams ? 'invalid_input' : 'internal'
      const shown = code === RpcCode.readOnly ? `hub ${url} is read-only: ${message}` : `hub server ${url}: ${message} (JSON-RPC ${code})`
      throw new RemoteCallError(shown, api, { httpStatus: res.status, rpcCode: code })
    }
    if (!res.ok) throw httpError(url, res.status, res.statusText, res.headers.get('retry-after'))
    return parsed.result
  }

  /**
   * Calls a tool and returns its JSON result. A result holding `error` (upstream's refusals:
   * validation, unknown ids) is thrown as `not_found` or `invalid_input` with upstream's message.
   */
  async callTool<T = Record<string, unknown>>(name: string, args: Record<string, unknown>, opts: CallOptions = {}): Promise<T> {
    const result = ToolResult.safeParse(await this.rpc('tools/call', { name, arguments: args }, opts))
    const text = result.success ? result.data.content[0]!.text : undefined
    let value: unknown
    try {
      // exact numbers: metadata keeps ints past 2^53, 1.0 and -0.0 (see remote-json.ts)
      value = text === undefined ? undefined : parseHubJson(text)
    } catch {
      value = undefined
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      throw new RemoteCallError(`hub server ${this.endpoint.url}: ${name} returned no JSON object`, 'internal')
    }
    const out = value as { error?: unknown; success?: unknown }
    if (typeof out.error === 'string' && (out.success === false || out.success === undefined)) {
      throw new RemoteCallError(out.error, /\bnot found\b/.test(out.error) ? 'not_found' : 'invalid_input')
    }
    return value as T
  }

  /** The server's tools and the argument names each accepts. */
  async listTools(opts: CallOptions = {}): Promise<ToolInfo[]> {
    const parsed = ToolList.safeParse(await this.rpc('tools/list', {}, opts))
    if (!parsed.success) throw new RemoteCallError(`hub server ${this.endpoint.url}: tools/list returned an unexpected shape`, 'internal')
    return parsed.data.tools.map((t) => ({ name: t.name, arguments: new Set(Object.keys(t.inputSchema?.properties ?? {})) }))
  }
}
