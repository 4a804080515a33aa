/**
 * Stopping the edits of this process (issue 36, point 4): `muster serve` must end within 2 s of
 * SIGTERM whatever it is doing, a send into a 100 MB role file included. `stopEdits` aborts every
 * edit in progress that has not swapped its version in yet: it stops at its next step (a temp file
 * being written stops mid-write) and changes nothing. One that has finishes as usual (what is left
 * is a short settle window), so its caller hears that the edit landed. Temp files still being written when the process exits anyway are
 * removed on the way out (`process.on('exit')`), so no `.muster-*.tmp` is left behind.
 */
import { unlinkSync } from 'node:fs'
import { basename } from 'node:path'
import { ApiError } from '../../shared/api-error'

/** The controllers of the edits in progress. */
const running = new Set<AbortController>()
/** Temp files created and not yet removed (each is only ever a new version, never an installed one). */
const temps = new Set<string>()
let exitHook = false

/** A new edit's signal, aborted by `stopEdits`; call the returned `done` when the edit ends. */
export function editStarted(): { signal: AbortSignal; done: () => void } {
  const c = new AbortController()
  running.add(c)
  return { signal: c.signal, done: () => void running.delete(c) }
}

/** Aborts every edit in progress in this process (edits started later run as usual). */
export function stopEdits(): void {
  for (const c of running) c.abort()
  running.clear()
}

/** The error of an edit stopped before it changed anything. */
export function stoppedError(path: string): ApiError {
  return new ApiError(`Muster is stopping: ${basename(path)} was not changed; try it again`, 'unavailable')
}

/** Throws `stoppedError` once `signal` is aborted. */
export function throwIfStopped(signal: AbortSignal | undefined, path: string): void {
  if (signal?.aborted) throw stoppedError(path)
}

/** Notes a temp file about to be written (removed at exit if still there). */
export function tempStarted(name: string): void {
  temps.add(name)
  if (exitHook) return
  exitHook = true
  process.on('exit', () => {
    for (const t of temps) {
      try {
        unlinkSync(t)
      } catch {
        // removed already, or its folder is gone
      }
    }
  })
}

/** The temp file is gone (removed, or handed to the swap). */
export function tempDone(name: string): void {
  temps.delete(name)
}
