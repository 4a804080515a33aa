/**
 * The digest pool's worker (`digest-pool.ts`): reads role files and digests them off the main
 * thread. Built as its own entry next to each bundle that may start it (`out/cli`, `out/main`,
 * `out/bench`); never imported.
 */
import { readFileSync } from 'node:fs'
import { parentPort } from 'node:worker_threads'
import type { DigestReply, DigestRequest } from './digest-protocol'
import { digestRole } from './role-digest'

parentPort?.on('message', (req: DigestRequest) => {
  const results: DigestReply['results'] = req.items.map(({ path, file }) => {
    try {
      return { ok: true, digest: digestRole(file, readFileSync(path)) }
    } catch (err) {
      const e = err as NodeJS.ErrnoException
      return { ok: false, code: e.code ?? 'EIO', message: e.message }
    }
  })
  parentPort!.postMessage({ id: req.id, results } satisfies DigestReply)
})
