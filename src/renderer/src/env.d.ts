/// <reference types="vite/client" />
import type { ApiErrorCode, MusterClient } from '../../shared/api'

/** What the Electron preload exposes. contextBridge drops an Error's `code` and class, so calls
 * go through `callResult`, which resolves the raw `{ ok, value } | { ok: false, error, code }`. */
export interface MusterBridge extends MusterClient {
  callResult(method: string, input: unknown): Promise<{ ok: true; value: unknown } | { ok: false; error: string; code: ApiErrorCode }>
}

declare global {
  interface Window {
    /** The typed client the Electron preload exposes; absent in a plain browser. */
    muster?: MusterBridge
  }
}

export {}
