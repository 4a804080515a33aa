/**
 * The Electron IPC binding of the service: one invoke channel (`muster:call`) behind a sender
 * check and contract validation, and one push channel (`muster:event`) to our windows.
 */
import { ApiError, isMethodName, parseInput, type ApiErrorCode, type PushedEvent } from '../shared/api'
import type { MusterService } from '../core/service-types'
import { CALL_CHANNEL, EVENT_CHANNEL, isApiErrorCode, type IpcResult } from '../preload/ipc-protocol'

/** The part of an `IpcMainInvokeEvent` the binding reads (so tests can fake it). */
export interface IpcCallEvent {
  readonly sender: { readonly id: number; readonly mainFrame: unknown }
  readonly senderFrame: { readonly url: string } | null
}

/** The part of Electron's `ipcMain` the binding uses. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcCallEvent, ...args: unknown[]) => unknown): void
  removeHandler(channel: string): void
}

/** The service operations the binding needs. */
export type CallableService = Pick<MusterService, 'call'>

/** Options for `bindService`. */
export interface BindOptions {
  /** Decides whether a call comes from one of our app pages; see `createTrustedSenderCheck`. */
  isTrustedSender: (event: IpcCallEvent) => boolean
  /** Where rejected and failed calls are reported (default `console.warn`). */
  log?: (message: string) => void
}

/** Inputs for `createTrustedSenderCheck`. */
export interface TrustedSenderInput {
  /** True for the app's own page URLs (`isAppUrl` bound to the renderer target). */
  isAppUrl: (url: string) => boolean
  /** True for the webContents of a window this process created. */
  isOurWebContents: (webContentsId: number) => boolean
}

/**
 * The sender check: the call must come from the top frame (not an iframe) of a window we created,
 * currently showing our app page (not a page it was somehow navigated to).
 */
export function createTrustedSenderCheck({ isAppUrl, isOurWebContents }: TrustedSenderInput): (event: IpcCallEvent) => boolean {
  return (event) => {
    const frame = event.senderFrame
    if (!frame || frame !== event.sender.mainFrame) return false
    if (!isOurWebContents(event.sender.id)) return false
    return isAppUrl(frame.url)
  }
}

/** Longest error message sent to the renderer; longer ones are cut (never a stack). */
const MAX_ERROR_MESSAGE = 2000

/** Serialises any thrown value for the renderer: message and contract code, never a stack. */
export function serializeError(err: unknown): { ok: false; error: string; code: ApiErrorCode } {
  let code: ApiErrorCode = 'internal'
  if (err instanceof ApiError) code = err.code
  else if (
    typeof err === 'object' &&
    err !== null &&
    isApiErrorCode((err as { code?: unknown }).code) &&
    (err as Error).name === 'ApiError'
  ) {
    code = (err as { code: ApiErrorCode }).code
  }
  let message = err instanceof Error ? err.message : typeof err === 'string' ? err : 'internal error'
  if (!message) message = code === 'internal' ? 'internal error' : code
  if (message.length > MAX_ERROR_MESSAGE) message = `${message.slice(0, MAX_ERROR_MESSAGE)}…`
  return { ok: false, error: message, code }
}

/** Handles one `muster:call`: sender check, method check, input validation, then the service. */
export async function handleCall(
  service: CallableService,
  opts: BindOptions,
  event: IpcCallEvent,
  method: unknown,
  input: unknown
): Promise<IpcResult> {
  const log = opts.log ?? ((m: string) => console.warn(`[muster] ${m}`))
  let trusted = false
  try {
    trusted = opts.isTrustedSender(event)
  } catch {
    trusted = false
  }
  if (!trusted) {
    log(`rejected IPC call from an untrusted frame (${describeFrame(event)})`)
    return { ok: false, error: 'this frame may not call Muster', code: 'forbidden' }
  }
  if (!isMethodName(method)) {
    return { ok: false, error: `unknown method: ${String(method).slice(0, 100)}`, code: 'invalid_input' }
  }
  try {
    // Validate here too, so nothing untrusted reaches the core even if it forgot to.
    const parsed = parseInput(method, input)
    const value = await service.call(method, parsed)
    return { ok: true, value }
  } catch (err) {
    const result = serializeError(err)
    if (result.code === 'internal') log(`${method} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`)
    return result
  }
}

/** Registers the one `muster:call` handler; returns a function that removes it. */
export function bindService(ipcMain: IpcMainLike, service: CallableService, opts: BindOptions): () => void {
  ipcMain.handle(CALL_CHANNEL, (event: IpcCallEvent, method: unknown, input: unknown) => handleCall(service, opts, event, method, input))
  return () => ipcMain.removeHandler(CALL_CHANNEL)
}

/** The part of a webContents `forwardEvents` uses. */
export interface EventTarget {
  isDestroyed(): boolean
  send(channel: string, ...args: unknown[]): void
}

/**
 * Pushes every service event to every live window as `muster:event` `{ name, payload }`.
 * Returns the unsubscribe function.
 */
export function forwardEvents(
  service: Pick<MusterService, 'subscribe'>,
  getWebContents: () => Iterable<EventTarget>,
  log: (message: string) => void = (m) => console.warn(`[muster] ${m}`)
): () => void {
  return service.subscribe((event: PushedEvent) => {
    const message = { name: event.name, payload: event.payload }
    for (const contents of getWebContents()) {
      if (contents.isDestroyed()) continue
      try {
        contents.send(EVENT_CHANNEL, message)
      } catch (err) {
        log(`could not push ${event.name}: ${String(err)}`)
      }
    }
  })
}

function describeFrame(event: IpcCallEvent): string {
  const url = event.senderFrame?.url ?? 'no frame'
  const where = event.senderFrame && event.senderFrame === event.sender.mainFrame ? 'top frame' : 'subframe'
  return `${where} ${url.slice(0, 200)}, webContents ${event.sender.id}`
}
