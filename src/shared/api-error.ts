/**
 * The error every method throws and every transport carries, in a module of its own without zod:
 * core modules on the CLI's fast paths (`muster status`) import it from here so they never load
 * the contract's schemas. `api.ts` re-exports it.
 */

/** Error payload every transport returns for a failed call. */
export interface ApiErrorBody {
  error: string
  code: ApiErrorCode
}

/** Coarse error categories, so the UI can tell bad input from a missing thing from a bug; `unavailable`: the process is stopping, try again (HTTP 503). */
export type ApiErrorCode = 'invalid_input' | 'not_found' | 'conflict' | 'forbidden' | 'internal' | 'unavailable'

/** An error with a code that crosses transports unchanged. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: ApiErrorCode = 'internal'
  ) {
    super(message)
    this.name = 'ApiError'
  }
}
