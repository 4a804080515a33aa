/**
 * The client the preload exposes to the renderer as `window.muster`. Built on an injected
 * `ipcRenderer`-like object so it can be tested without Electron. It never hands the renderer the
 * IPC object or the IPC event, only values and plain `{ name, payload }` events.
 */
import type { MethodName, MethodInput, MethodOutput, MusterClient, PushedEvent } from '../shared/api'
import { CALL_CHANNEL, EVENT_CHANNEL, normalizeIpcResult, toCodedError, type IpcResult } from './ipc-protocol'

/** The part of Electron's `ipcRenderer` the client uses. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown
}

/** `window.muster`: the typed client, plus `callResult` which resolves the raw envelope. */
export interface PreloadClient extends MusterClient {
  /**
   * Like `call` but never rejects for a failed call: resolves `{ ok: false, error, code }`.
   * contextBridge copies only the message of a thrown Error, so a main-world adapter that needs
   * the error code should build on this (see `unwrapIpcResult`).
   */
  callResult(method: string, input: unknown): Promise<IpcResult>
}

/** Options for `createPreloadClient`. */
export interface PreloadClientOptions {
  /** Where a throwing event listener is reported (default `console.error`). */
  onListenerError?: (error: unknown) => void
}

// Method names look like `projects.add`; the main process checks them against the contract.
const METHOD_NAME = /^[a-z][A-Za-z0-9]*(\.[a-z][A-Za-z0-9]*)+$/

/** True when `name` is shaped like a contract method name (zod-free pre-check only). */
export function looksLikeMethodName(name: unknown): name is string {
  return typeof name === 'string' && name.length <= 100 && METHOD_NAME.test(name)
}

/** True when a pushed message is `{ name: string, payload }`. */
function isPushedEvent(message: unknown): message is PushedEvent {
  return typeof message === 'object' && message !== null && typeof (message as { name?: unknown }).name === 'string' && 'payload' in message
}

/** Creates the renderer-facing client on top of `ipc`. */
export function createPreloadClient(ipc: IpcRendererLike, opts: PreloadClientOptions = {}): PreloadClient {
  const reportListenerError = opts.onListenerError ?? ((error: unknown) => console.error('[muster] event listener failed', error))

  async function callResult(method: string, input: unknown): Promise<IpcResult> {
    if (!looksLikeMethodName(method)) {
      return { ok: false, error: `unknown method: ${String(method).slice(0, 100)}`, code: 'invalid_input' }
    }
    try {
      return normalizeIpcResult(await ipc.invoke(CALL_CHANNEL, method, input ?? {}))
    } catch (err) {
      // invoke itself failed (no handler registered, input that cannot be cloned).
      return { ok: false, error: err instanceof Error ? err.message : 'request failed', code: 'internal' }
    }
  }

  return {
    async call<M extends MethodName>(method: M, input: MethodInput<M>): Promise<MethodOutput<M>> {
      const result = await callResult(method, input)
      if (result.ok) return result.value as MethodOutput<M>
      throw toCodedError(result.error, result.code)
    },
    callResult,
    subscribe(listener: (event: PushedEvent) => void): () => void {
      if (typeof listener !== 'function') throw new TypeError('subscribe needs a listener function')
      const onMessage = (_event: unknown, message: unknown): void => {
        if (!isPushedEvent(message)) return
        try {
          listener({ name: message.name, payload: message.payload } as PushedEvent)
        } catch (err) {
          reportListenerError(err)
        }
      }
      ipc.on(EVENT_CHANNEL, onMessage)
      let active = true
      return () => {
        if (!active) return
        active = false
        ipc.removeListener(EVENT_CHANNEL, onMessage)
      }
    }
  }
}
