/**
 * The browser transport: `POST /api/call/<method>` for calls and one shared EventSource on
 * `/api/events` for pushed events (same origin as the page served by `muster serve`).
 */
import type {
  EventName,
  events as EventSchemas,
  MethodInput,
  MethodName,
  MethodOutput,
  MusterClient,
  PushedEvent
} from '../../../shared/api'
import { EVENT_NAMES } from '../../../shared/event-names'
import { ApiError, type ApiErrorCode } from '../../../shared/api-error'
import type { ConnectionStatus } from './connection-store'

const ERROR_CODES: readonly ApiErrorCode[] = ['invalid_input', 'not_found', 'conflict', 'forbidden', 'internal', 'unavailable']
/** Backoff when the browser gave up on the stream (e.g. the server answered 403 or went away). */
const RETRY_DELAYS_MS = [1000, 2000, 5000, 10000]

/** Hooks the HTTP client reports to; kept outside the MusterClient contract. */
export interface HttpClientHooks {
  onStatus: (status: ConnectionStatus) => void
  /** Called on every successful (re)connect so the app can refetch what it may have missed. */
  onConnected: () => void
}

/** Builds a MusterClient talking HTTP + SSE to the page's own origin. */
export function createHttpClient(token: string | null, hooks: HttpClientHooks): MusterClient {
  const listeners = new Set<(event: PushedEvent) => void>()
  let source: EventSource | null = null
  let retry = 0
  let retryTimer: ReturnType<typeof setTimeout> | undefined

  // The events' schemas (zod and the whole contract) load after the first paint: the first screen
  // needs none of them. Every event waits on the same promise, so they arrive in order.
  let schemas: Promise<typeof EventSchemas> | null = null
  const emit = (name: EventName, data: string): void => {
    let raw: unknown
    try {
      raw = JSON.parse(data)
    } catch {
      return
    }
    schemas ??= import('../../../shared/api').then((m) => m.events)
    void schemas.then((events) => {
      const parsed = events[name].safeParse(raw)
      if (!parsed.success) return
      const event = { name, payload: parsed.data } as PushedEvent
      for (const listener of listeners) listener(event)
    })
  }

  const connect = (): void => {
    const query = token ? `?token=${encodeURIComponent(token)}` : ''
    const es = new EventSource(`/api/events${query}`)
    source = es
    es.onopen = () => {
      retry = 0
      hooks.onStatus('live')
      hooks.onConnected()
    }
    es.onerror = () => {
      hooks.onStatus('reconnecting')
      // CONNECTING means the browser retries by itself; CLOSED means it gave up, so we retry.
      if (es.readyState === EventSource.CLOSED) {
        es.close()
        source = null
        const delay = RETRY_DELAYS_MS[Math.min(retry, RETRY_DELAYS_MS.length - 1)]
        retry += 1
        retryTimer = setTimeout(connect, delay)
      }
    }
    for (const name of EVENT_NAMES) {
      es.addEventListener(name, (msg) => emit(name, (msg as MessageEvent<string>).data))
    }
  }

  const ensureStream = (): void => {
    if (!source && retryTimer === undefined) connect()
  }

  return {
    async call<M extends MethodName>(method: M, input: MethodInput<M>): Promise<MethodOutput<M>> {
      const headers: Record<string, string> = { 'Content-Type': 'application/json' }
      if (token) headers.Authorization = `Bearer ${token}`
      let res: Response
      try {
        res = await fetch(`/api/call/${method}`, {
          method: 'POST',
          headers,
          body: JSON.stringify(input ?? {}),
          credentials: 'same-origin'
        })
      } catch (err) {
        throw new ApiError(`cannot reach muster serve: ${err instanceof Error ? err.message : String(err)}`, 'internal')
      }
      const text = await res.text()
      let body: unknown = undefined
      try {
        body = text ? JSON.parse(text) : undefined
      } catch {
        // Non-JSON bodies (a proxy error page) are reported with the status line below.
      }
      if (!res.ok) {
        const err = body as { error?: unknown; code?: unknown } | undefined
        const message = typeof err?.error === 'string' ? err.error : `${method} failed: HTTP ${res.status}`
        const code = ERROR_CODES.includes(err?.code as ApiErrorCode) ? (err?.code as ApiErrorCode) : 'internal'
        throw new ApiError(message, code)
      }
      return body as MethodOutput<M>
    },
    subscribe(listener) {
      listeners.add(listener)
      ensureStream()
      return () => {
        listeners.delete(listener)
      }
    }
  }
}
