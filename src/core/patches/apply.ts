/**
 * One apply run, after the preflight passed: `git apply --check` on the verified bytes, a snapshot
 * of every path the patch touches, `git apply`, the test command with live output, then the ack
 * (`applied` or `failed`) with the evidence. Each step updates the run record (pushed to the UI),
 * and each decision is audited. Only an explicit call starts it; a run never repeats itself.
 */
import { randomBytes } from 'node:crypto'
import type { ApplyRun, HubEvent } from '../../shared/api'
import { gitApply, headInfo, indexEntries, worktreeStatus } from '../git'
import { evidenceText } from './evidence'
import type { PatchStore } from './patch-store'
import { markApplied, restoreSnapshot, takeSnapshot } from './snapshot'
import { runTestCommand, type TestRun } from './test-run'
import type { VerifiedPatch } from './verify'

/** Everything a run needs, resolved by the patch service. */
export interface ApplyJob {
  hubName: string
  hubLocation: string
  event: HubEvent
  verified: VerifiedPatch
  project: string
  root: string
  headBefore: string | null
  testCommand: string | null
  testTimeoutMs: number
  threeWay: boolean
  actor: string
}

/** What a run reports to and asks of its surroundings. */
export interface ApplyHooks {
  store: PatchStore
  /** Posts the ack as the operator; returns the ack event. */
  ack(status: 'applied' | 'failed', body: string): Promise<HubEvent>
  /** The run changed (phase, outcome, test status). */
  onRun(run: ApplyRun): void
  /** Test output as printed. */
  onOutput(text: string): void
  /** Registers the running test so it can be cancelled. */
  onTest(test: TestRun | null): void
}

/** A new run id: `run_<UTC stamp>_<8 hex>`. */
export function newRunId(now = new Date()): string {
  return `run_${now.toISOString().replace(/[-:]/g, '').slice(0, 15)}_${randomBytes(4).toString('hex')}`
}

/** The record of a run that has not started its steps yet. */
export function initialRun(id: string, job: ApplyJob): ApplyRun {
  return {
    id,
    hub: job.hubLocation,
    event_id: job.event.id,
    artifact_id: job.verified.artifact?.id ?? null,
    project: job.project,
    repo: job.root,
    started_at: new Date().toISOString(),
    finished_at: null,
    phase: 'checking',
    outcome: 'running',
    reason: null,
    check: null,
    applied: false,
    test: null,
    head_before: job.headBefore,
    head_after: null,
    ack_event_id: null,
    ack_error: null,
    evidence: null,
    revertable: false,
    reverted_at: null,
    revision: 0
  }
}

/** Every path a patch touches, repository-relative. */
export function touchedPaths(v: VerifiedPatch): string[] {
  return [...new Set((v.parsed?.files ?? []).flatMap((f) => [f.old_path, f.new_path]).filter((p): p is string => p !== null))]
}

/** Runs the steps of `run` (already claimed and stored) to the end; resolves with the final record. */
export async function executeRun(start: ApplyRun, job: ApplyJob, hooks: ApplyHooks): Promise<ApplyRun> {
  let run = start
  const audit = (action: 'apply' | 'test' | 'ack', outcome: string, summary: string, detail: Record<string, unknown> = {}): void =>
    void hooks.store.audit({
      hub: job.hubLocation,
      event_id: job.event.id,
      correlation_id: job.event.correlation_id,
      action,
      outcome,
      actor: job.actor,
      project: job.project,
      summary,
      apply_id: run.id,
      detail
    })
  const update = (patch: Partial<ApplyRun>, pid: number | null = process.pid): void => {
    run = { ...run, ...patch, revision: run.revision + 1 }
    hooks.store.saveRun(run, pid)
    hooks.onRun(run)
  }
  const bytes = job.verified.bytes!

  try {
    const check = await gitApply(job.root, bytes, { check: true, threeWay: job.threeWay })
    update({ check })
    if (!check.ok) {
      audit('apply', 'check-failed', `git apply --check failed (exit ${check.code}): nothing was applied`, { output: check.output })
      update({ outcome: 'failed', reason: 'git apply --check failed: the patch does not apply here', phase: 'acking' })
    } else {
      const paths = touchedPaths(job.verified)
      const before = await takeSnapshot(job.root, paths)
      if (job.threeWay) hooks.store.saveIndexBefore(run.id, await indexEntries(job.root, paths))
      hooks.store.saveSnapshot(run.id, before)
      update({ phase: 'applying' })
      const applied = await gitApply(job.root, bytes, { threeWay: job.threeWay })
      if (!applied.ok) {
        await restoreSnapshot(job.root, before)
        hooks.store.dropSnapshot(run.id)
        audit('apply', 'failed', `git apply failed after a passing check (exit ${applied.code}); the worktree was put back`, {
          output: applied.output
        })
        update({
          outcome: 'failed',
          reason: `git apply failed: ${applied.output.split('\n').find((l) => /error/i.test(l)) ?? `exit ${applied.code}`}`,
          phase: 'acking'
        })
      } else {
        hooks.store.saveSnapshot(run.id, await markApplied(job.root, before))
        audit('apply', 'applied', `applied to ${job.project} (${paths.length} path${paths.length === 1 ? '' : 's'})`, { paths })
        update({ applied: true })
        await runTests(job, hooks, () => run, update, audit)
      }
    }
  } catch (err) {
    update({ outcome: 'failed', reason: (err as Error).message.split('\n')[0]!, phase: 'acking' })
    audit('apply', 'error', `apply stopped: ${(err as Error).message.split('\n')[0]}`)
  }
  return finish(job, hooks, () => run, update, audit)
}

type Update = (patch: Partial<ApplyRun>, pid?: number | null) => void
type Audit = (action: 'apply' | 'test' | 'ack', outcome: string, summary: string, detail?: Record<string, unknown>) => void

/** Runs the test command (when there is one) and sets the outcome. */
async function runTests(job: ApplyJob, hooks: ApplyHooks, current: () => ApplyRun, update: Update, audit: Audit): Promise<void> {
  if (!job.testCommand) {
    update({ outcome: 'applied', phase: 'acking' })
    return
  }
  update({ phase: 'testing', test: { command: job.testCommand, status: 'running', exit_code: null, duration_ms: null, tail: '' } })
  let tail = ''
  let lastSave = 0
  const test = runTestCommand(job.testCommand, job.root, job.testTimeoutMs, (text) => {
    tail = (tail + text).slice(-64 * 1024)
    hooks.onOutput(text)
    // the record keeps the tail for a late viewer; rewriting it at most twice a second is plenty
    if (Date.now() - lastSave > 500) {
      lastSave = Date.now()
      update({ test: { ...current().test!, tail } })
    }
  })
  hooks.onTest(test)
  const r = await test.done
  hooks.onTest(null)
  const passed = r.status === 'passed'
  update({
    test: { command: job.testCommand, status: r.status, exit_code: r.exitCode, duration_ms: r.durationMs, tail: r.tail },
    outcome: passed ? 'applied' : 'failed',
    reason: passed
      ? null
      : `tests ${r.status === 'failed' ? `failed (exit ${r.exitCode})` : r.status === 'timed-out' ? `timed out after ${Math.round(job.testTimeoutMs / 1000)} s` : r.status}`,
    revertable: !passed,
    phase: 'acking'
  })
  audit(
    'test',
    r.status,
    `${job.testCommand}: ${r.status}${r.exitCode === null ? '' : ` (exit ${r.exitCode})`} in ${(r.durationMs / 1000).toFixed(1)} s`
  )
}

/** Records the resulting HEAD, posts the ack with the evidence, closes the run. */
async function finish(job: ApplyJob, hooks: ApplyHooks, current: () => ApplyRun, update: Update, audit: Audit): Promise<ApplyRun> {
  let worktree: string | null = null
  try {
    const head = await headInfo(job.root)
    const changes = await worktreeStatus(job.root)
    worktree = changes.length === 0 ? 'clean' : `${changes.length} path${changes.length === 1 ? '' : 's'} changed, not committed`
    update({ head_after: head.commit })
  } catch {
    /* the evidence says "none" */
  }
  const run = current()
  const status = run.outcome === 'applied' ? 'applied' : 'failed'
  const evidence = evidenceText(run, job.verified.verification.sha256.computed, worktree)
  update({ evidence, phase: 'acking' })
  try {
    const ack = await hooks.ack(status, evidence)
    audit('ack', status, `acked ${status} (${ack.id})`, { ack_event_id: ack.id })
    update({ ack_event_id: ack.id })
  } catch (err) {
    const msg = (err as Error).message.split('\n')[0]!
    audit('ack', 'error', `the ${status} ack could not be posted: ${msg}`)
    update({ ack_error: msg })
  }
  update({ phase: 'done', finished_at: new Date().toISOString() }, null)
  return current()
}
