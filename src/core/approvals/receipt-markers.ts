/**
 * Receipt markers: how a later hook of the same session finds the request a tool call was answered
 * for. `approve-hook` leaves one small file per request it asked about in a session, in Muster's
 * home: `<home>/receipts/<harness>/<session>/<name>.json` (first `waiting`, then the allow it
 * delivered; a delivered deny needs none). The session hook, on the harness's own later event for
 * the call (PostToolUse, ...) or the session's end (Interrupt, SessionEnd), takes the marker,
 * records the receipt in the marker's hub and settles it (deletes it), or restores it when the
 * hub could not take the receipt, so a later event tries again.
 * - Markers are left only where the receipt hooks were installed for the harness (its folder
 *   exists: `enableReceipts`), so a harness without them leaves nothing behind.
 * - A marker is taken by renaming it to `<name>.json.<pid>.<ms>.claim` (one rename wins); a claim
 *   older than `STALE_CLAIM_MS` belongs to a hook that died and is taken again.
 * - A call is matched by its `tool_use_id` when both sides have one, else by tool name and input
 *   (`digest`) in the same session, the oldest first.
 * Light on purpose (node:fs and node:path only): the session hook loads it on every tool call.
 */
import { existsSync, readdirSync, readFileSync, renameSync, rmdirSync, unlinkSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { callSignature, type ToolInput } from '../../shared/approvals/tool-call'
import { makeDirSync } from '../make-dir'

/** The markers' folder, inside Muster's home. */
export const RECEIPTS_DIR = 'receipts'
/** A claim older than this belongs to a session hook that died: it is taken again. */
export const STALE_CLAIM_MS = 120_000

/** The request a marker points at: enough to append a receipt to its thread. */
export interface RequestRef {
  id: string
  correlation_id: string
  stream: string
  /** The requesting agent. */
  agent: string
}

/** One marker's content. */
export interface ReceiptMarker {
  /** The hub the request is in, as the approve-hook was told (`--hub`, `--palace`; neither: the default). */
  hub?: string
  palace?: string
  request: RequestRef
  tool_name: string
  /** `digest(tool_name, tool_input)`. */
  digest: string
  tool_use_id: string | null
  /** `waiting` for the operator, or the allow the hook delivered. */
  state: 'waiting' | 'allow'
  /** When it was left (ISO). */
  at: string
}

/** A marker taken by this process: settle it once recorded, or restore it. */
export interface TakenMarker {
  marker: ReceiptMarker
  /** The claimed file: another process (the session hook's worker) settles it with `claimed(file)`. */
  claim: string
  /** Deletes the claim (and the session's folder when it is empty); never throws. */
  settle(): void
  /** Puts the marker back for a later event; never throws. */
  restore(): void
}

/** What a later event says about its call. */
export interface CallMatch {
  tool_use_id: string | null
  tool_name: string | null
  tool_input: ToolInput | null
}

/** A short fingerprint of a call's tool and input (two FNV-1a 32-bit hashes of its signature). */
export function digest(tool_name: string, tool_input: ToolInput): string {
  const s = callSignature(tool_name, tool_input)
  let a = 0x811c9dc5
  let b = 0x9dc5811c
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    a = Math.imul(a ^ c, 0x01000193) >>> 0
    b = Math.imul(b ^ c ^ (i & 0xff), 0x01000193) >>> 0
  }
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0')
}

/** A name part safe in any file system: unsafe characters as `%xx`, at most 120 characters. */
function safe(s: string): string {
  const out = s.replace(/[^A-Za-z0-9_-]/g, (c) => `%${c.charCodeAt(0).toString(16)}`)
  return out.length > 120 ? `${out.slice(0, 100)}~${digest(s, {})}` : out
}

/** The folder of one harness's markers. */
export function harnessReceiptsDir(home: string, harness: string): string {
  return join(home, RECEIPTS_DIR, safe(harness))
}

/** The folder of one session's markers. */
export function sessionReceiptsDir(home: string, harness: string, session: string): string {
  return join(harnessReceiptsDir(home, harness), safe(session))
}

/** Lets the approve-hook leave markers for this harness (its receipt hooks are installed). */
export function enableReceipts(home: string, harness: string): void {
  makeDirSync(harnessReceiptsDir(home, harness), { mode: 0o700 })
}

/** Stops leaving markers for this harness and removes the ones left; never throws. */
export function disableReceipts(home: string, harness: string): void {
  try {
    const dir = harnessReceiptsDir(home, harness)
    for (const s of readdirSync(dir)) {
      const sd = join(dir, s)
      for (const f of readdirSync(sd)) unlinkSync(join(sd, f))
      rmdirSync(sd)
    }
    rmdirSync(dir)
  } catch {
    // nothing there, or half removed: nothing is left for a marker to be written into either way
  }
}

/** True when the approve-hook leaves markers for this harness. */
export function receiptsEnabled(home: string, harness: string): boolean {
  return existsSync(harnessReceiptsDir(home, harness))
}

/** The file name a call's marker has. */
function markerName(m: Pick<ReceiptMarker, 'tool_use_id' | 'request'>): string {
  return m.tool_use_id ? `u-${safe(m.tool_use_id)}.json` : `r-${safe(m.request.correlation_id)}.json`
}

/**
 * Leaves (or replaces) the marker of a call; the session's folder is made when needed. Throws when
 * it cannot be written (the caller warns: the receipt is then simply never recorded).
 */
export function leaveMarker(home: string, harness: string, session: string, m: ReceiptMarker): void {
  const dir = sessionReceiptsDir(home, harness, session)
  const file = join(dir, markerName(m))
  const tmp = `${file}.${process.pid}.tmp`
  const text = JSON.stringify(m)
  try {
    writeFileSync(tmp, text, { mode: 0o600 })
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
    makeDirSync(dir, { mode: 0o700 })
    writeFileSync(tmp, text, { mode: 0o600 })
  }
  renameSync(tmp, file)
}

/** Removes the marker of a call (a deny was delivered: nothing of it runs); never throws. */
export function dropMarker(home: string, harness: string, session: string, m: Pick<ReceiptMarker, 'tool_use_id' | 'request'>): void {
  const dir = sessionReceiptsDir(home, harness, session)
  try {
    unlinkSync(join(dir, markerName(m)))
    rmdirSync(dir)
  } catch {
    // gone already, or other markers still there
  }
}

/** True when a session has markers (or claims) in its folder: the only check a receipt event without one pays. */
export function sessionHasMarkers(home: string, harness: string, session: string): boolean {
  return existsSync(sessionReceiptsDir(home, harness, session))
}

const CLAIM_RE = /^(.+\.json)\.\d+\.(\d+)\.claim$/

/** The files of a session's folder a taker may claim: markers and stale claims, oldest marker name first. */
function claimable(dir: string, now: number): { name: string; base: string }[] {
  let names: string[]
  try {
    names = readdirSync(dir).sort()
  } catch {
    return []
  }
  const out: { name: string; base: string }[] = []
  for (const n of names) {
    if (n.endsWith('.json')) out.push({ name: n, base: n })
    else {
      const m = CLAIM_RE.exec(n)
      if (m && now - Number(m[2]) > STALE_CLAIM_MS) out.push({ name: n, base: m[1]! })
    }
  }
  return out
}

/** Claims one file and reads it; null when another process took it first or it is not a marker (then removed). */
function claim(dir: string, f: { name: string; base: string }, now: number): TakenMarker | null {
  const to = join(dir, `${f.base}.${process.pid}.${now}.claim`)
  try {
    renameSync(join(dir, f.name), to)
  } catch {
    return null
  }
  return claimed(to)
}

/** A claim this process was handed (the hook took it, its worker records it); null when it is gone or not a marker. */
export function claimed(to: string): TakenMarker | null {
  const dir = dirname(to)
  const base = basename(to).replace(/\.\d+\.\d+\.claim$/, '')
  const settle = (): void => {
    try {
      unlinkSync(to)
    } catch {
      // gone already
    }
    try {
      rmdirSync(dir)
    } catch {
      // other markers still there
    }
  }
  let marker: ReceiptMarker
  try {
    marker = JSON.parse(readFileSync(to, 'utf8')) as ReceiptMarker
    if (!marker?.request?.id || !marker.request.correlation_id || typeof marker.digest !== 'string') throw new Error('not a marker')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') settle()
    return null
  }
  return {
    marker,
    claim: to,
    settle,
    restore: () => {
      try {
        renameSync(to, join(dir, base))
      } catch {
        // gone already
      }
    }
  }
}

/** Reads a marker without claiming it; null when unreadable. */
function peek(dir: string, name: string): ReceiptMarker | null {
  try {
    return JSON.parse(readFileSync(join(dir, name), 'utf8')) as ReceiptMarker
  } catch {
    return null
  }
}

/**
 * Takes the delivered marker of the call a later event names, or null when none waits for it: by
 * `tool_use_id` first, else the oldest delivered marker of the same tool and input. A marker still
 * waiting for the operator is never taken by a call event.
 */
export function takeMarker(home: string, harness: string, session: string, call: CallMatch, now = Date.now()): TakenMarker | null {
  const dir = sessionReceiptsDir(home, harness, session)
  const files = claimable(dir, now)
  if (!files.length) return null
  const byId = call.tool_use_id ? `u-${safe(call.tool_use_id)}.json` : null
  const want = call.tool_name && call.tool_input ? digest(call.tool_name, call.tool_input) : null
  const ordered = byId ? [...files.filter((f) => f.base === byId), ...files.filter((f) => f.base !== byId)] : files
  for (const f of ordered) {
    const m = peek(dir, f.name)
    if (!m || m.state !== 'allow') continue
    const same = f.base === byId || (want !== null && m.digest === want && (!m.tool_use_id || !call.tool_use_id))
    if (!same) continue
    const taken = claim(dir, f, now)
    if (taken) return taken
  }
  return null
}

/** Takes every marker of a session (its end: Interrupt, SessionEnd), oldest first. */
export function takeSessionMarkers(home: string, harness: string, session: string, now = Date.now()): TakenMarker[] {
  const dir = sessionReceiptsDir(home, harness, session)
  const out: TakenMarker[] = []
  for (const f of claimable(dir, now)) {
    const t = claim(dir, f, now)
    if (t) out.push(t)
  }
  return out
}
