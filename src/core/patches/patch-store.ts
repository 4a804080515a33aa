/**
 * Muster's own records about patches, in the state DB (migration 5): the audit (append-only),
 * apply runs (one JSON document per run, rewritten as it progresses, with the pid of the process
 * running it), the pre-apply snapshots a revert restores, and per-project test commands.
 */
import type { ApplyRun, AuditEntry } from '../../shared/api'
import type { Db } from '../sqlite'

/** Default test timeout: ten minutes, long enough for most suites, short enough to notice a hang. */
export const DEFAULT_TEST_TIMEOUT_MS = 10 * 60 * 1000

/** An audit entry before it is stored. */
export type AuditInput = Omit<AuditEntry, 'id' | 'at'> & { detail?: Record<string, unknown>; at?: string }

/** One file as it was before an apply. */
export interface SnapshotFile {
  path: string
  existed: boolean
  /** File mode bits (0o100644, 0o100755), null for symlinks and absent files. */
  mode: number | null
  /** A symlink's target. */
  link: string | null
  content: Buffer | null
  /** sha256 of the file right after the apply (null = absent then); a revert checks it first. */
  afterSha: string | null
  /** For an absent file: the topmost folder above it that was absent too (the apply created it). */
  createdDir: string | null
}

/** A project's patch settings. */
export interface ProjectPatchSettings {
  project: string
  test_command: string | null
  test_timeout_ms: number
}

interface AuditRow extends Omit<AuditEntry, 'action'> {
  action: AuditEntry['action']
}

/** Reads and writes the patch tables. */
export class PatchStore {
  constructor(private readonly db: Db) {}

  /** Appends one audit entry and returns it. */
  audit(input: AuditInput): AuditEntry {
    const at = input.at ?? new Date().toISOString()
    const r = this.db
      .prepare(
        `INSERT INTO patch_audit (at, hub, event_id, correlation_id, action, outcome, actor, project, summary, apply_id, detail_json)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
      )
      .run(
        at,
        input.hub,
        input.event_id,
        input.correlation_id,
        input.action,
        input.outcome,
        input.actor,
        input.project,
        input.summary,
        input.apply_id,
        JSON.stringify(input.detail ?? {})
      )
    const { detail: _d, ...rest } = input
    return { ...rest, id: Number(r.lastInsertRowid), at }
  }

  /** The newest audit entry of a patch for one action, or null. */
  lastAudit(hub: string, eventId: string, action: AuditEntry['action']): AuditEntry | null {
    const row = this.db
      .prepare(
        'SELECT id, at, hub, event_id, correlation_id, action, outcome, actor, project, summary, apply_id FROM patch_audit WHERE hub = ? AND event_id = ? AND action = ? ORDER BY id DESC LIMIT 1'
      )
      .get(hub, eventId, action) as AuditRow | undefined
    return row ?? null
  }

  /** Audit entries of one patch and/or one thread, oldest first (at most 1,000). */
  auditOf(hub: string, q: { event_id?: string; correlation_id?: string }): AuditEntry[] {
    const cols = 'id, at, hub, event_id, correlation_id, action, outcome, actor, project, summary, apply_id'
    return this.db
      .prepare(`SELECT ${cols} FROM patch_audit WHERE hub = ? AND (event_id = ? OR correlation_id = ?) ORDER BY id LIMIT 1000`)
      .all(hub, q.event_id ?? null, q.correlation_id ?? null) as AuditRow[]
  }

  /** Inserts or rewrites a run. */
  saveRun(run: ApplyRun, pid: number | null): void {
    this.db
      .prepare(
        `INSERT INTO patch_runs (id, hub, event_id, outcome, pid, started_at, run_json) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET outcome = excluded.outcome, pid = excluded.pid, run_json = excluded.run_json`
      )
      .run(run.id, run.hub, run.event_id, run.outcome, pid, run.started_at, JSON.stringify(run))
  }

  /** One run and the pid of the process that runs it (null once finished). */
  run(id: string): { run: ApplyRun; pid: number | null } | null {
    const row = this.db.prepare('SELECT run_json, pid FROM patch_runs WHERE id = ?').get(id) as
      { run_json: string; pid: number | null } | undefined
    return row ? { run: JSON.parse(row.run_json) as ApplyRun, pid: row.pid } : null
  }

  /** Runs of one patch, oldest first. */
  runsOf(hub: string, eventId: string): { run: ApplyRun; pid: number | null }[] {
    const rows = this.db
      .prepare('SELECT run_json, pid FROM patch_runs WHERE hub = ? AND event_id = ? ORDER BY started_at, rowid')
      .all(hub, eventId) as { run_json: string; pid: number | null }[]
    return rows.map((r) => ({ run: JSON.parse(r.run_json) as ApplyRun, pid: r.pid }))
  }

  /**
   * Claims the right to apply a patch: in one immediate transaction, refuses when a run of it
   * succeeded or is still running in a live process, then stores `run`. Returns the blocking run.
   */
  claim(run: ApplyRun, pid: number, alive: (other: ApplyRun, pid: number) => boolean): ApplyRun | null {
    return this.db
      .transaction((): ApplyRun | null => {
        for (const r of this.runsOf(run.hub, run.event_id)) {
          if (r.run.outcome === 'applied' && !r.run.reverted_at) return r.run
          if (r.run.outcome === 'running') {
            if (r.pid !== null && alive(r.run, r.pid)) return r.run
            const dead: ApplyRun = {
              ...r.run,
              outcome: 'failed',
              phase: 'done',
              reason: 'the process running this apply ended before it finished',
              finished_at: new Date().toISOString(),
              revision: r.run.revision + 1
            }
            this.saveRun(dead, null)
          }
        }
        this.saveRun(run, pid)
        return null
      })
      .immediate()
  }

  /** Gives back a claim whose apply was refused before it touched anything (its run row goes). */
  release(runId: string): void {
    this.db.prepare("DELETE FROM patch_runs WHERE id = ? AND outcome = 'running'").run(runId)
  }

  /** Stores the pre-apply state of the files a run touches. */
  saveSnapshot(runId: string, files: SnapshotFile[]): void {
    const put = this.db.prepare(
      'INSERT OR REPLACE INTO patch_snapshots (run_id, path, existed, mode, link, content, after_sha, created_dir) VALUES (?, ?, ?, ?, ?, ?, ?, ?)'
    )
    this.db.transaction(() => {
      for (const f of files) put.run(runId, f.path, f.existed ? 1 : 0, f.mode, f.link, f.content, f.afterSha, f.createdDir)
    })()
  }

  /** The snapshot of a run. */
  snapshot(runId: string): SnapshotFile[] {
    const rows = this.db
      .prepare('SELECT path, existed, mode, link, content, after_sha, created_dir FROM patch_snapshots WHERE run_id = ? ORDER BY path')
      .all(runId) as {
      path: string
      existed: number
      mode: number | null
      link: string | null
      content: Buffer | null
      after_sha: string | null
      created_dir: string | null
    }[]
    return rows.map((r) => ({
      path: r.path,
      existed: r.existed === 1,
      mode: r.mode,
      link: r.link,
      content: r.content,
      afterSha: r.after_sha,
      createdDir: r.created_dir
    }))
  }

  /** Keeps the index entries a --3way apply will change. */
  saveIndexBefore(runId: string, entries: string): void {
    this.db.prepare('UPDATE patch_runs SET index_before = ? WHERE id = ?').run(Buffer.from(entries, 'utf8'), runId)
  }

  /** The index entries saved before a --3way apply, or null for a plain apply. */
  indexBefore(runId: string): string | null {
    const row = this.db.prepare('SELECT index_before FROM patch_runs WHERE id = ?').get(runId) as
      { index_before: Buffer | null } | undefined
    return row?.index_before ? row.index_before.toString('utf8') : null
  }

  /** Drops a run's snapshot (after a revert, or when nothing was applied). */
  dropSnapshot(runId: string): void {
    this.db.prepare('DELETE FROM patch_snapshots WHERE run_id = ?').run(runId)
  }

  /** The audit entries of a project's settings changes, oldest first. */
  settingsAudit(project: string): AuditEntry[] {
    return this.db
      .prepare(
        "SELECT id, at, hub, event_id, correlation_id, action, outcome, actor, project, summary, apply_id FROM patch_audit WHERE action = 'settings' AND project = ? ORDER BY id"
      )
      .all(project) as AuditEntry[]
  }

  /** A project's test command and timeout (defaults when never set). */
  settings(project: string): ProjectPatchSettings {
    const row = this.db
      .prepare('SELECT project, test_command, test_timeout_ms FROM project_patch_settings WHERE project = ?')
      .get(project) as { project: string; test_command: string | null; test_timeout_ms: number | null } | undefined
    return { project, test_command: row?.test_command ?? null, test_timeout_ms: row?.test_timeout_ms ?? DEFAULT_TEST_TIMEOUT_MS }
  }

  /** Sets a project's test command (null = none) and timeout. */
  setSettings(project: string, testCommand: string | null, timeoutMs?: number): ProjectPatchSettings {
    this.db
      .prepare(
        `INSERT INTO project_patch_settings (project, test_command, test_timeout_ms) VALUES (?, ?, ?)
         ON CONFLICT(project) DO UPDATE SET test_command = excluded.test_command, test_timeout_ms = COALESCE(excluded.test_timeout_ms, test_timeout_ms)`
      )
      .run(project, testCommand, timeoutMs ?? null)
    return this.settings(project)
  }
}
