/**
 * The composition root: the one place that builds Muster's core for an entry (Electron main,
 * `muster serve`, every CLI command, `approve-hook`, `muster mcp`, `muster status`). An entry opens
 * a root on Muster's home and asks it for the parts it needs; each part is built on first `get`,
 * from the parts it needs in turn, and only then. Light parts (the state DB and the stores read by
 * the hot paths) come back at once; the others as a promise, their modules loaded on first use
 * (`./hub-parts.ts`, `./parts.ts`), so `muster status` and `approve-hook` never load the service, zod or the remote
 * hub client. `close` closes what was built, newest first.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { PushedEvent } from '../../shared/api'
import { ProjectRegistry, STATE_DB_FILE, openStateDb, storedOperatorId } from '../fleet'
import { openDatabase, type Db } from '../sqlite'
import { NoStateDb, type PartName, type Root, type RootOptions, type RootParts, type StateMode } from './root-types'

export { NoStateDb, type PartName, type Root, type RootOptions, type RootParts, type StateMode } from './root-types'

/** How long a hot path waits for the state DB while the app writes it. */
const STATE_BUSY_MS = 2_000

/** Opens the state DB as `mode` says. */
function openState(home: string, mode: StateMode): Db {
  if (mode === 'create') return openStateDb(home)
  const file = join(home, STATE_DB_FILE)
  if (!existsSync(file)) throw new NoStateDb(file)
  const db = openDatabase(file, { mustExist: true, readonly: mode === 'read-only', busyTimeoutMs: STATE_BUSY_MS })
  // as the app writes it (WAL): a hit count needs no fsync of its own
  if (mode === 'existing') db.pragma('synchronous = NORMAL')
  return db
}

/** Opens a root on `opts.home`; nothing is built until asked for. */
export function openRoot(opts: RootOptions): Root {
  const built = new Map<PartName, unknown>()
  const closers: (() => void | Promise<void>)[] = []
  const listeners = new Set<(event: PushedEvent) => void>()
  let closed = false

  const builders: { [K in PartName]: () => RootParts[K] } = {
    state: () => {
      const db = openState(opts.home, opts.state ?? 'create')
      closers.push(() => void db.close())
      return db
    },
    projects: () => new ProjectRegistry(root.get('state')),
    operatorId: () => {
      const db = root.get('state')
      return () => storedOperatorId(db)
    },
    keys: () => import('./parts').then((p) => p.keysPart(root)),
    rules: () => import('./parts').then((p) => p.rulesPart(root)),
    settings: () => import('./hub-parts').then((p) => p.settingsPart(root)),
    hubs: () => import('./hub-parts').then((p) => p.hubsPart(root)),
    patches: () => import('./hub-parts').then((p) => p.patchesPart(root)),
    approvals: () => import('./parts').then((p) => p.approvalsPart(root)),
    presence: () => import('./parts').then((p) => p.presencePart(root)),
    push: () => import('./push-part').then((p) => p.pushPart(root)),
    service: () => import('./parts').then((p) => p.servicePart(root)),
    gates: () => import('./parts').then((p) => p.gatesPart(root)),
    usage: () => import('./parts').then((p) => p.usagePart(root)),
    spool: () =>
      import('./drain-hook-jobs').then((d) => d.hookJobDrainer(opts.home, (line) => void process.stderr.write(`${line}\n`), openRoot))
  }

  const root: Root = {
    options: opts,
    get(name) {
      if (closed) throw new Error('this Muster root is closed')
      if (built.has(name)) return built.get(name) as RootParts[typeof name]
      const part = builders[name]()
      built.set(name, part)
      // a part that failed to build is built again next time (a state DB created meanwhile)
      if (part instanceof Promise) part.catch(() => built.get(name) === part && built.delete(name))
      return part
    },
    emit(event) {
      for (const l of listeners) {
        try {
          l(event)
        } catch {
          /* a faulty listener must not break the others */
        }
      }
    },
    onEvent(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    onClose(fn) {
      closers.push(fn)
    },
    async close() {
      if (closed) return
      // parts still being built are waited for, so what they open is closed too; with only light
      // parts built, closing is synchronous (`muster status` exits right after)
      const building = [...built.values()].filter((p) => p instanceof Promise)
      if (building.length) await Promise.allSettled(building)
      closed = true
      listeners.clear()
      for (const fn of closers.reverse()) {
        const done = fn()
        if (done) await done
      }
    }
  }
  return root
}
