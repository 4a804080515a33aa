/**
 * The spool of allowlisted calls still to record (`<home>/hook-jobs/`): the hook's fast path
 * answers a call from the rules' mirror and leaves the record of it here (one small file per
 * call), so the answering process starts nothing; the next process that drains the spool (a full
 * hook's detached worker, `muster serve` or the app while they run, any command that reads the
 * approvals) counts the hit and writes the request and the allowlist decision to the hub
 * (`core/root/drain-hook-jobs.ts`).
 * - A job is written before the answer as `<name>.tmp` (a home it cannot be written to sends the
 *   hook the full way) and renamed to `<name>.json` only once the answer was written: a drainer
 *   takes `.json` files only, so nothing is recorded for an answer nobody received.
 * - One file per job, never appended to: concurrent hooks never share a file, so none can write
 *   into a file a drainer has already read.
 * - A drainer claims a job by renaming it to `<name>.json.<pid>.claim` (one rename wins, so two
 *   drainers never record one job), then reads it, deletes it and records it (a drainer that dies
 *   while recording loses at most that one record; it never doubles one). A claim whose process is
 *   gone is claimed again by the next drainer; a `.tmp` left by a hook killed mid-answer is removed
 *   after an hour.
 * Light on purpose (node:fs and node:path): the hook's fast path loads it on every answer.
 */
import { readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { PalaceEnv } from '../hub'
import { makeDirSync } from '../make-dir'
import type { AllowingRule } from './approve-hook'
import type { HarnessCall } from './harnesses'
import { processAlive } from '../process-alive'

/** The spool's folder, inside Muster's home. */
export const HOOK_JOBS_DIR = 'hook-jobs'
const READY = '.json'
const WRITING = '.tmp'
const CLAIM_RE = /^(.+\.json)\.(\d+)\.claim$/
/** A `.tmp` older than this belongs to a hook that died before it could offer its job. */
const ORPHAN_MS = 3600_000

/** One allowed call to record: the hook's options (home resolved), its cwd and palace env, the call and the rule. */
export interface HookJob {
  options: {
    agent: string
    home: string
    project?: string
    palace?: string
    hub?: string
    timeoutMs?: number
    lockTimeoutMs?: number
  }
  cwd: string
  /** The hook's palace variables (its `--palace`-less hub is resolved with them, as the hook would). */
  env: PalaceEnv
  call: HarnessCall
  rule: AllowingRule
}

/** The palace variables of `env`, as a job carries them. */
export function palaceEnvOf(env: NodeJS.ProcessEnv): PalaceEnv {
  const out: PalaceEnv = {}
  for (const k of ['HOME', 'USERPROFILE', 'MEMPALACE_PALACE_PATH', 'MEMPAL_PALACE_PATH'] as const) if (env[k] !== undefined) out[k] = env[k]
  return out
}

/** Jobs this process has written (one for a hook; more in a test). */
let written = 0

/** A job written but not yet offered to drainers. */
export interface PendingJob {
  /** Makes the job drainable (after the answer was written); throws when it cannot. */
  offer(): void
  /** Deletes the job (the answer was not received); never throws. */
  withdraw(): void
}

/** Writes `job` into the spool of `home` (creating the folder), not yet drainable. */
export function prepareJob(home: string, job: HookJob): PendingJob {
  const dir = join(home, HOOK_JOBS_DIR)
  // time first (then this process's count), so a drainer records jobs in the order they were answered
  const name = `${Date.now().toString(36)}-${process.pid}-${(written++).toString(36).padStart(4, '0')}-${Math.random().toString(36).slice(2)}`
  const tmp = join(dir, `${name}${WRITING}`)
  const text = JSON.stringify(job)
  try {
    writeFileSync(tmp, text, { mode: 0o600, flag: 'wx' })
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
    makeDirSync(dir, { mode: 0o700 })
    writeFileSync(tmp, text, { mode: 0o600, flag: 'wx' })
  }
  return {
    offer: () => renameSync(tmp, join(dir, `${name}${READY}`)),
    withdraw: () => {
      try {
        unlinkSync(tmp)
      } catch {
        // gone already
      }
    }
  }
}

/** True when the spool of `home` holds a job to record (a claim of a live drainer does not count). */
export function jobsWaiting(home: string): boolean {
  try {
    return readdirSync(join(home, HOOK_JOBS_DIR)).some((n) => n.endsWith(READY))
  } catch {
    return false
  }
}

/**
 * Claims every job waiting in the spool of `home` (and the claims of drainers that are gone) for
 * this process, oldest first; the claimed files, to read with `takeJob`.
 */
export function claimJobs(home: string, now = Date.now()): string[] {
  const dir = join(home, HOOK_JOBS_DIR)
  let names: string[]
  try {
    names = readdirSync(dir).sort()
  } catch {
    return []
  }
  const claimed: string[] = []
  for (const n of names) {
    let base: string | null = null
    if (n.endsWith(READY)) base = n
    else {
      const m = CLAIM_RE.exec(n)
      if (m && !processAlive(Number(m[2]))) base = m[1]!
      else if (!m && n.endsWith(WRITING)) removeOrphan(join(dir, n), now)
    }
    if (!base) continue
    const to = join(dir, `${base}.${process.pid}.claim`)
    try {
      renameSync(join(dir, n), to)
      claimed.push(to)
    } catch {
      // another drainer took it first
    }
  }
  return claimed
}

/** Removes a `.tmp` job left by a hook that died before offering it (a hook still answering is left alone). */
function removeOrphan(file: string, now: number): void {
  try {
    if (now - statSync(file).mtimeMs > ORPHAN_MS) unlinkSync(file)
  } catch {
    // gone already
  }
}

/** Hands claimed jobs back to the spool (a drain that stopped early); never throws. */
export function releaseJobs(files: readonly string[]): void {
  for (const f of files) {
    try {
      renameSync(f, f.replace(/\.\d+\.claim$/, ''))
    } catch {
      // gone already
    }
  }
}

/** Reads and deletes a claimed job; null for a file that is not one (deleted too). */
export function takeJob(file: string): HookJob | null {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } finally {
    try {
      unlinkSync(file)
    } catch {
      // gone already
    }
  }
  try {
    const job = JSON.parse(text) as HookJob
    return job && typeof job === 'object' && job.options && typeof job.options.agent === 'string' && job.call && job.rule ? job : null
  } catch {
    return null
  }
}
