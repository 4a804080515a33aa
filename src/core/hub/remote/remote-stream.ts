/**
 * One connection to a hub server's live tail, `GET <url>/logstream/stream` (Server-Sent Events,
 * spec/hub-logstream.md section 8): `id: <evt id>` / `event: logstream` / `data: <envelope JSON>`
 * frames, `: ping` comments every 15 s while idle, the cursor in `Last-Event-ID`. Frames are parsed
 * by `eventsource-parser` (the parser behind the `eventsource` package) over Node's fetch rather
 * than by an `EventSource` client, because reconnection is ours to drive: the resume point is the
 * mirror's persisted tip (not an in-memory last id), a 503 must wait its `Retry-After`, a 401 or a
 * vanished cursor must not be retried blindly, and a silent socket is detected by the missing pings.
 */
import { createParser } from 'eventsource-parser'
import type { HubEvent } from '../../../shared/contract/hub-types'
import { authHeaders, describeNetworkError, httpError, RemoteCallError, type RemoteEndpoint } from './remote-mcp'
import { parseHubJson } from './remote-json'
import { toHubEvent } from './remote-mirror'

/** Three missed pings (upstream pings every 15 s) and the connection is considered dead. */
export const DEFAULT_IDLE_TIMEOUT_MS = 45_000
/** Longest event (or line) of a live stream, in characters: beyond it the stream is closed. */
export const MAX_SSE_EVENT_CHARS = 16 * 1024 * 1024

/** What a stream reports while it runs. */
export interface StreamHandlers {
  /** The server accepted the stream (HTTP 200, `text/event-stream`). */
  opened(): void
  /** Events of one network chunk, in order (never empty). */
  events(events: HubEvent[]): void
  /** A `: ping` comment arrived. */
  ping?(): void
}

/**
 * Streams events after `cursor` (null: from the server's tip) until the signal aborts (resolves)
 * or the stream fails (rejects with a RemoteCallError: HTTP status, unreachable, silent, closed).
 */
export async function runStream(
  endpoint: RemoteEndpoint,
  cursor: string | null,
  handlers: StreamHandlers,
  signal: AbortSignal,
  idleTimeoutMs = DEFAULT_IDLE_TIMEOUT_MS,
  maxEventChars = MAX_SSE_EVENT_CHARS
): Promise<void> {
  const { url } = endpoint
  const local = new AbortController()
  const abort = (): void => local.abort()
  signal.addEventListener('abort', abort, { once: true })
  let idle: NodeJS.Timeout | undefined
  let silent = false
  const armIdle = (): void => {
    clearTimeout(idle)
    idle = setTimeout(() => ((silent = true), local.abort()), idleTimeoutMs)
    idle.unref?.()
  }
  try {
    let res: Response
    armIdle()
    try {
      res = await fetch(`${url}/logstream/stream`, {
        headers: authHeaders(endpoint, { Accept: 'text/event-stream', ...(cursor ? { 'Last-Event-ID': cursor } : {}) }),
        signal: local.signal
      })
    } catch (err) {
      if (signal.aborted) return
      if (silent)
        throw new RemoteCallError(`hub server ${url} did not answer the live stream in ${idleTimeoutMs / 1000} s`, 'conflict', {
          unreachable: true
        })
      throw new RemoteCallError(`cannot reach hub server ${url}: ${describeNetworkError(err)}`, 'conflict', { unreachable: true })
    }
    if (!res.ok) throw httpError(url, res.status, res.statusText, res.headers.get('retry-after'), await res.text().catch(() => ''))
    if (!(res.headers.get('content-type') ?? '').startsWith('text/event-stream') || !res.body) {
      throw new RemoteCallError(
        `hub server ${url} did not answer /logstream/stream with an event stream (is it a MemPalace hub?)`,
        'internal'
      )
    }
    handlers.opened()
    let batch: HubEvent[] = []
    let bad: Error | null = null
    // characters fed since the last complete event or comment: what the parser may be holding
    let pending = 0
    const parser = createParser({
      onEvent: (msg) => {
        pending = 0
        if (msg.event !== 'logstream' || bad) return
        try {
          batch.push(toHubEvent(parseHubJson(msg.data)))
        } catch (err) {
          bad = err as Error
        }
      },
      onComment: () => {
        pending = 0
        handlers.ping?.()
      }
    })
    const decoder = new TextDecoder()
    const reader = res.body.getReader()
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>
      try {
        chunk = await reader.read()
      } catch (err) {
        if (signal.aborted) return
        if (silent)
          throw new RemoteCallError(`hub server ${url} went silent (no event or ping for ${idleTimeoutMs / 1000} s)`, 'conflict', {
            unreachable: true
          })
        throw new RemoteCallError(`lost the live stream of hub server ${url}: ${describeNetworkError(err)}`, 'conflict', {
          unreachable: true
        })
      }
      if (chunk.done) throw new RemoteCallError(`hub server ${url} closed the live stream`, 'conflict', { unreachable: true })
      armIdle()
      const text = decoder.decode(chunk.value, { stream: true })
      pending += text.length
      parser.feed(text)
      if (pending > maxEventChars)
        throw new RemoteCallError(
          `hub server ${url} sent a live-stream event longer than ${maxEventChars / 1024 / 1024} Mi characters; the stream was closed`,
          'internal'
        )
      if (batch.length) {
        const out = batch
        batch = []
        handlers.events(out)
      }
      if (bad)
        throw new RemoteCallError(`hub server ${url} sent an event that is not a logstream envelope: ${(bad as Error).message}`, 'internal')
    }
  } finally {
    clearTimeout(idle)
    signal.removeEventListener('abort', abort)
    local.abort()
  }
}
