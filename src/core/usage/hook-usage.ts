/**
 * What the session hook's detached worker does with usage, after it recorded the session's state:
 * it reads what the harness appended to the session's record file since the last read (only when
 * that file is one of the harness's own, inside the harness's folders for the hook's environment),
 * writes the gate file from the budgets as they now stand, and, when the session's tokens grew,
 * sends the session's whole usage to the hub as one `usage.report` event, so a Muster on another
 * machine sees it. Never run in the harness's own wait: the hook hands this to its worker.
 */
import type { AppendInput } from '../hub'
import type { Db } from '../sqlite'
import type { SettingsStore } from '../fleet'
import type { BudgetKeys } from './budgets'
import { BudgetGate } from './gate'
import { writeGate } from './gate-file'
import type { FolderEnv } from './readers'
import { reportAppend, sessionReport } from './report'
import { UsageScanner } from './scan'
import { UsageStore } from './usage-store'

/** The session a lifecycle hook reported, with the record file it named. */
export interface HookedUsage {
  harness: string
  transcript_path: string
  session_id: string
  agent: string
  /** The project as the hook resolved it (for the report's stream and project budgets). */
  project: string
  cwd: string
}

/** What the worker hands over. */
export interface HookUsageDeps {
  db: Db
  keys: BudgetKeys
  settings: Pick<SettingsStore, 'internal'> | null
  projectFor(cwd: string | null): string | null
  /** The hook's environment (the harness's own: HOME, CLAUDE_CONFIG_DIR, CODEX_HOME...). */
  env: FolderEnv
  machine: string
  /** Appends to the hub the hook reports to; null when it cannot be reached. */
  append: ((input: AppendInput) => Promise<unknown>) | null
  warn(line: string): void
}

/** Reads the session's new records, keeps the gate in step, and reports the session to the hub when its usage grew. */
export async function recordHookUsage(s: HookedUsage, d: HookUsageDeps): Promise<void> {
  const file = d.db.name
  if (!UsageStore.available(d.db) || !BudgetGate.available(d.db)) {
    // a state DB from before usage: nothing to read into, and no budget can be crossed
    if (file) writeGate(file, [])
    return
  }
  const store = new UsageStore(d.db)
  const before = store.source(s.transcript_path)
  const row = await new UsageScanner(store, d.env).record(
    { harness: s.harness, path: s.transcript_path, session_id: s.session_id, agent: s.agent, project: s.project, cwd: s.cwd },
    d.env
  )
  new BudgetGate({ db: d.db, keys: d.keys, settings: d.settings, projectFor: d.projectFor }).writeGateFile()
  if (!row) {
    d.warn(`muster session-hook: usage not read: ${s.transcript_path} is not a ${s.harness} record file in its own folders`)
    return
  }
  if (before && before.read_to === row.read_to && before.file_id === row.file_id) return
  const report = sessionReport(store, { session_id: row.session_id ?? s.session_id, harness: s.harness, machine: d.machine, cwd: s.cwd })
  if (!report || !d.append) return
  try {
    await d.append(reportAppend(s.agent, s.project, report))
  } catch (err) {
    d.warn(`muster session-hook: the usage report was not sent to the hub: ${(err as Error).message}`)
  }
}
