/**
 * What the in-process hook tests open (`runApproveHook` on a real hub file and state DB), each
 * closed after the test that opened it.
 */
import { join } from 'node:path'
import { afterEach } from 'vitest'
import { AllowlistStore } from '../../src/core/approvals/allowlist-store'
import { openStateDb } from '../../src/core/fleet/state-db'
import { LocalHub } from '../../src/core/hub/local/local-hub'
import { createHub } from '../../src/core/hub/store/schema'
import type { Db } from '../../src/core/sqlite'
import type { testKeys } from './operator-key'
import { tmpDir } from './tmp'

/** Closes, newest first, after each test of the file that calls it; push what a test opens. */
export function closeAfterEach(): (() => unknown)[] {
  const closers: (() => unknown)[] = []
  afterEach(async () => {
    while (closers.length) await closers.pop()!()
  })
  return closers
}

/** A new hub file in a temporary palace, opened as the hook opens it (waiting `busyTimeoutMs` on a lock); closed by `closers`. */
export function openTestHub(closers: (() => unknown)[], busyTimeoutMs = 300): { palace: string; hub: LocalHub } {
  const palace = join(tmpDir(), 'palace')
  createHub(palace).close()
  const hub = new LocalHub(palace, { busyTimeoutMs })
  closers.push(() => hub.close())
  return { palace, hub }
}

/** A new state DB in a temporary home and `operator`'s allowlist on it; the DB closed by `closers`. */
export function openTestRules(closers: (() => unknown)[], operator: ReturnType<typeof testKeys>): { db: Db; rules: AllowlistStore } {
  const db = openStateDb(join(tmpDir(), 'home'))
  closers.push(() => db.close())
  return { db, rules: new AllowlistStore(db, operator.rules) }
}
