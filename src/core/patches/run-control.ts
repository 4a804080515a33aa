/**
 * The apply runs of this process: their latest record, live output coalesced into one push per
 * tenth of a second (a chatty test suite must not flood the UI), cancelling a running test, and
 * the revert of a failed run. Runs of other processes are read from the state DB.
 */
import { ApiError } from '../../shared/api-error'
import type { ApplyRun, PushedEvent } from '../../shared/api'
import { restoreIndex, worktreeStatus } from '../git'
import type { PatchStore } from './patch-store'
import { changedSinceApply, restoreSnapshot } from './snapshot'
import type { TestRun } from './test-run'

/** How often buffered output is pushed (ms): ten updates a second reads as live. */
const OUTPUT_FLUSH_MS = 100

interface Active {
  run: ApplyRun
  test: TestRun | null
  buffer: string
  timer: NodeJS.Timeout | null
  done: Promise<void>
  finish: () => void
}

/** Tracks this process's runs and pushes their changes. */
export class RunControl {
  private readonly active = new Map<string, Active>()

  constructor(
    private readonly store: PatchStore,
    private readonly emit?: (event: PushedEvent) => void
  ) {}

  /** True while run `id` is running in this process. */
  has(id: string): boolean {
    return this.active.has(id)
  }

  /** A run began. */
  started(run: ApplyRun): void {
    let finish = (): void => undefined
    const done = new Promise<void>((r) => (finish = r))
    this.active.set(run.id, { run, test: null, buffer: '', timer: null, done, finish })
    this.emit?.({ name: 'patch.run', payload: run })
  }

  /** A run's record changed. */
  changed(run: ApplyRun): void {
    const a = this.active.get(run.id)
    if (a) {
      this.flush(a)
      a.run = run
    }
    this.emit?.({ name: 'patch.run', payload: run })
  }

  /** Output of a run's test command. */
  output(id: string, text: string): void {
    const a = this.active.get(id)
    if (!a) return
    a.buffer += text
    a.timer ??= setTimeout(() => this.flush(a), OUTPUT_FLUSH_MS)
  }

  private flush(a: Active): void {
    if (a.timer) clearTimeout(a.timer)
    a.timer = null
    if (!a.buffer) return
    this.emit?.({ name: 'patch.output', payload: { id: a.run.id, text: a.buffer } })
    a.buffer = ''
  }

  /** The running test of a run (null when it ended). */
  test(id: string, test: TestRun | null): void {
    const a = this.active.get(id)
    if (a) a.test = test
  }

  /** A run ended. */
  ended(id: string): void {
    const a = this.active.get(id)
    if (!a) return
    this.flush(a)
    this.active.delete(id)
    a.finish()
  }

  /** A run's record as it stands, from memory while it runs here, else from the state DB. */
  current(stored: ApplyRun): ApplyRun {
    return this.active.get(stored.id)?.run ?? stored
  }

  /** Run `id` now. */
  get(id: string): ApplyRun {
    const a = this.active.get(id)
    if (a) return a.run
    const stored = this.store.run(id)
    if (!stored) throw new ApiError(`apply run '${id}' not found`, 'not_found')
    return stored.run
  }

  /** Stops run `id`'s test command; the run then acks `failed` ("cancelled"). */
  cancel(id: string): ApplyRun {
    const a = this.active.get(id)
    if (!a) {
      const stored = this.store.run(id)
      if (!stored) throw new ApiError(`apply run '${id}' not found`, 'not_found')
      if (stored.run.outcome === 'running' && stored.pid !== null)
        throw new ApiError(`run ${id} runs in another Muster process (pid ${stored.pid}): cancel it there`, 'conflict')
      throw new ApiError(`run ${id} is not running (${stored.run.outcome})`, 'conflict')
    }
    if (!a.test) throw new ApiError(`run ${id} is ${a.run.phase}: only a running test command can be cancelled`, 'conflict')
    a.test.cancel()
    return a.run
  }

  /**
   * Reverts a failed run: refuses when the run applied nothing, is running, was reverted, or when
   * a touched file changed since the apply; otherwise restores every touched path (and, after
   * --3way, their index entries) exactly as before the apply. `untouched` lists the worktree's
   * other changes, which a revert never touches.
   */
  async revert(id: string, actor: string): Promise<{ run: ApplyRun; restored: string[]; untouched: string[] }> {
    const run = this.get(id)
    if (this.active.has(id)) throw new ApiError(`run ${id} is still running: wait for it to end`, 'conflict')
    if (run.reverted_at) throw new ApiError(`run ${id} was already reverted at ${run.reverted_at}`, 'conflict')
    if (!run.revertable)
      throw new ApiError(
        run.applied
          ? `run ${id} ${run.outcome === 'applied' ? 'passed' : 'ended'}: only an apply whose tests failed is reverted`
          : `run ${id} applied nothing: there is nothing to revert`,
        'conflict'
      )
    const files = this.store.snapshot(id)
    const changed = await changedSinceApply(run.repo, files)
    const audit = (outcome: string, summary: string): void =>
      void this.store.audit({
        hub: run.hub,
        event_id: run.event_id,
        correlation_id: null,
        action: 'revert',
        outcome,
        actor,
        project: run.project,
        summary,
        apply_id: id
      })
    if (changed.length) {
      const msg = `revert refused: ${changed.join(', ')} changed since the apply (revert by hand, or undo those changes first)`
      audit('refused', msg)
      throw new ApiError(msg, 'conflict')
    }
    const restored = await restoreSnapshot(run.repo, files)
    const index = this.store.indexBefore(id)
    if (index !== null)
      await restoreIndex(
        run.repo,
        files.map((f) => f.path),
        index
      )
    const next: ApplyRun = { ...run, revertable: false, reverted_at: new Date().toISOString(), revision: run.revision + 1 }
    this.store.saveRun(next, null)
    this.store.dropSnapshot(id)
    audit('reverted', `reverted run ${id}: ${restored.length} path${restored.length === 1 ? '' : 's'} restored as before the apply`)
    this.emit?.({ name: 'patch.run', payload: next })
    // changes the revert left alone: the worktree's own (with a dirty apply) or what the tests wrote
    const mine = new Set(restored)
    const untouched = (await worktreeStatus(run.repo)).map((e) => e.path).filter((p) => !mine.has(p))
    return { run: next, restored, untouched }
  }

  /** Cancels running tests and waits for their runs to end (acks included). */
  async close(): Promise<void> {
    const waits = [...this.active.values()].map((a) => {
      a.test?.cancel()
      return a.done
    })
    await Promise.all(waits)
  }
}
