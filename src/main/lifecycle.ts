/**
 * App lifecycle helpers: close the service exactly once before the app quits (so the state DB
 * is closed and watchers stopped), without hanging the quit if closing stalls.
 */

/** The part of Electron's `app` used here. */
export interface QuitApp {
  on(event: 'before-quit', listener: (event: { preventDefault(): void }) => void): unknown
  quit(): void
}

/** Longest we wait for the service to close before quitting anyway (ms). */
export const CLOSE_TIMEOUT_MS = 5000

/**
 * Holds the first quit until `close()` settles (or times out), then quits for real. Later quit
 * requests during the close are held too; after it, quitting proceeds normally.
 */
export function closeOnQuit(
  app: QuitApp,
  close: () => Promise<void>,
  opts: { timeoutMs?: number; log?: (message: string) => void } = {}
): void {
  const timeoutMs = opts.timeoutMs ?? CLOSE_TIMEOUT_MS
  const log = opts.log ?? ((m: string) => console.warn(`[muster] ${m}`))
  let state: 'open' | 'closing' | 'closed' = 'open'
  app.on('before-quit', (event) => {
    if (state === 'closed') return
    event.preventDefault()
    if (state === 'closing') return
    state = 'closing'
    let timer: ReturnType<typeof setTimeout> | undefined
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        log(`the service did not close within ${timeoutMs} ms; quitting anyway`)
        resolve()
      }, timeoutMs)
    })
    Promise.race([close().catch((err: unknown) => log(`closing the service failed: ${String(err)}`)), timeout]).finally(() => {
      clearTimeout(timer)
      state = 'closed'
      app.quit()
    })
  })
}
