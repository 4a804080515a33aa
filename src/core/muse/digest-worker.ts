/**
 * The digest pool's worker (`digest-pool.ts`): reads role files and digests them off the main
 * thread. Built as its own entry next to each bundle that may start it (`out/cli`, `out/main`,
 * `out/bench`); never imported.
 */
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs'
import { parentPort } from 'node:worker_threads'
import type { DigestReply, DigestRequest } from './digest-protocol'
import { digestRole } from './role-digest'

parentPort?.on('message', (req: DigestRequest) => {
  const results: DigestReply['results'] = req.items.map(({ path, file }) => {
    try {
      if (!req.stat) return { ok: true, digest: digestRole(file, readFileSync(path)) }
      // the stamp is taken before the bytes are read, on the same descriptor (as the scan's stat-then-read)
      const fd = openSync(path, 'r')
      try {
        const { dev, ino, size, mtimeMs, ctimeMs } = fstatSync(fd)
        return { ok: true, digest: digestRole(file, readFileSync(fd)), stat: { dev, ino, size, mtimeMs, ctimeMs } }
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
