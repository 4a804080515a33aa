/**
 * The wire protocol between the preload and the main process: channel names and the result
 * envelope of a call. Shared by both sides, so it must stay dependency-free (no zod, no electron):
 * the sandboxed preload bundles it into a single CommonJS file.
 */
import type { ApiErrorCode } from '../shared/api'

/** The one invoke channel: `(method: string, input: unknown) => IpcResult`. */
export const CALL_CHANNEL = 'muster:call'
/** The one push channel: main → renderer, payload `{ name, payload }`. */
export const EVENT_CHANNEL = 'muster:event'

/** What `muster:call` resolves to; errors travel as data so their code survives IPC. */
export type IpcResult<T = unknown> = { ok: true; value: T } | { ok: false; error: string; code: ApiErrorCode }

/** Every error code the contract knows; anything else arriving over IPC is read as `internal`. */
export const ERROR_CODES: readonly ApiErrorCode[] = ['invalid_input', 'not_found', 'conflict', 'forbidden', 'internal']

/** True when `code` is one of the contract's error codes. */
export function isApiErrorCode(code: unknown): code is ApiErrorCode {
  return typeof code === 'string' && (ERROR_CODES as readonly string[]).includes(code)
}

/** An Error carrying the contract's error code (what the preload client rejects with). */
export interface CodedError extends Error {
  code: ApiErrorCode
}

/** Builds the Error a failed call rejects with: message from main, `.code` kept, name `ApiError`. */
export function toCodedError(error: string, code: ApiErrorCode): CodedError {
  const err = new Error(error) as CodedError
  err.name = 'ApiError'
  err.code = code
  return err
}

/**
 * Reads whatever arrived on `muster:call` as a well-formed envelope: a malformed one becomes an
 * `internal` failure, an unknown error code becomes `internal`, rather than garbage for the UI.
 */
export function normalizeIpcResult(result: unknown): IpcResult {
  if (typeof result === 'object' && result !== null && 'ok' in result) {
    const r = result as { ok: unknown; value?: unknown; error?: unknown; code?: unknown }
    if (r.ok === true) return { ok: true, value: r.value }
    if (r.ok === false) {
      const error = typeof r.error === 'string' && r.error ? r.error : 'request failed'
      return { ok: false, error, code: isApiErrorCode(r.code) ? r.code : 'internal' }
    }
  }
  return { ok: false, error: 'malformed response from the main process', code: 'internal' }
}

/** Turns a `muster:call` result into its value, or throws the error `makeError` builds. */
export function unwrapIpcResult<T>(result: unknown, makeError: (error: string, code: ApiErrorCode) => Error = toCodedError): T {
  const r = normalizeIpcResult(result)
  if (r.ok) return r.value as T
  throw makeError(r.error, r.code)
}
