/**
 * The digest pool's worker (`digest-pool.ts`): reads role files and digests them off the main
 * thread. Built as its own entry next to each bundle that may start it (`out/cli`, `out/main`,
 * `out/bench`); never imported.
 *
 * Each file is read into one buffer reused from file to file (the digest keeps no reference to
 * the bytes, only strings decoded from them): a fleet's first scan reads tens of megabytes, and a
 * fresh buffer per file made the worker's garbage collector a good part of its time.
 */
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs'
import { parentPort } from 'node:worker_threads'
import type { DigestReply, DigestRequest } from './digest-protocol'
import { digestRole } from './role-digest'

let scratch = Buffer.allocUnsafe(256 * 1024)

/** The bytes of open file `fd` of `size` bytes (as its `fstat` said): a view of the reused buffer, as `readFileSync(fd)` reads them. */
function readOpen(fd: number, size: number): Buffer {
  // no size (not a regular file, or an empty one): the reading loop of readFileSync
  if (size === 0) return readFileSync(fd)
  if (size > scratch.length) scratch = Buffer.allocUnsafe(Math.max(size, scratch.length * 2))
  let pos = 0
  for (let n = -1; n !== 0 && pos < size; pos += n) n = readSync(fd, scratch, pos, size - pos, null)
  return scratch.subarray(0, pos)
}

parentPort?.on('message', (req: DigestRequest) => {
  const results: DigestReply['results'] = req.items.map(({ path, file }) => {
    try {
      // the stamp is taken before the bytes are read, on the same descriptor (as the scan's stat-then-read)
      const fd = openSync(path, 'r')
      try {
        const st = fstatSync(fd)
        const { dev, ino, size, mtimeMs, ctimeMs } = st
        const digest = digestRole(file, readOpen(fd, st.isFile() ? size : 0))
        return req.stat ? { ok: true, digest, stat: { dev, ino, size, mtimeMs, ctimeMs } } : { ok: true, digest }
      } finally {
        closeSync(fd)
      }
    } catch (err) {
      const e = err as NodeJS.ErrnoException
      return { ok: false, code: e.code ?? 'EIO', message: e.message }
    }
  })
  parentPort!.postMessage({ id: req.id, results } satisfies DigestReply)
})
