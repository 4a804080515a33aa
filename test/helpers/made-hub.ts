/**
 * A complete MemPalace hub file made in `dir`, as another machine's or a backup's would be: one
 * file (its WAL checkpointed away) holding `bodies` as chat messages from `other`. For the tests
 * and the bench that replace, refill or restore a hub under a running Muster.
 */
import { join } from 'node:path'
import { createHub, HUB_FILENAME } from '../../src/core/hub/store/schema'
import { appendEvent } from '../../src/core/hub/store/writer'

/** Makes the hub in `dir` (which must not hold one) and returns its file's path. */
export function madeHub(dir: string, bodies: readonly string[]): string {
  const hub = createHub(dir)
  for (const body of bodies)
    appendEvent(hub.db, hub.replicaId, { type: 'chat.message', stream: 'project/x', room: 'rooms', from_agent: 'other', body })
  hub.db.pragma('wal_checkpoint(TRUNCATE)')
  hub.close()
  return join(dir, HUB_FILENAME)
}

/** `n` bodies `<tag> <i>` padded to about `pad` bytes (pages enough to corrupt one in the middle). */
export const numberedBodies = (n: number, tag: string, pad = 300): string[] =>
  Array.from({ length: n }, (_, i) => `${tag} ${i} ${'z'.repeat(pad)}`)
