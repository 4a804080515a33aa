/**
 * A stopping process's muse work, stopped at once (issue 36, point 4): edits in progress stop at
 * their next step (`safe-write-stop.ts`) and the digest workers stop mid-file (`digest-pool.ts`),
 * so `muster serve` ends within 2 s of SIGTERM even while it writes or parses a 100 MB role file.
 */
import { builtDigestPool } from './digest-pool'
import { stopEdits } from './safe-write-stop'

/** Stops this process's edits and digests in progress (new ones may start afterwards). */
export async function stopMuseWork(): Promise<void> {
  stopEdits()
  await builtDigestPool()?.stop()
}
