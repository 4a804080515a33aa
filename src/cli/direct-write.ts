/**
 * Blocking writes straight to a descriptor (no stream set up), shared by the CLI's printing and
 * the hook's fast path, whose bundle stays free of everything else in `output.ts`.
 */
import { writeSync } from 'node:fs'

/**
 * Writes all of `text` to descriptor `fd` with blocking `write`s (the process may exit right
 * after, with nothing left to flush); false when nobody reads it any more (EPIPE). A pipe a
 * parent left non-blocking is waited on.
 */
export function writeDirect(fd: 1 | 2, text: string): boolean {
  const bytes = Buffer.from(text)
  for (let at = 0; at < bytes.length;) {
    try {
      at += writeSync(fd, bytes, at)
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code
      if (code === 'EPIPE') return false
      if (code !== 'EAGAIN') throw err
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1)
    }
  }
  return true
}
