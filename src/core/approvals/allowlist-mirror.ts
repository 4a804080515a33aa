/**
 * A copy of the allowlist beside Muster's state DB (`allowlist-mirror.json`), so that the hook's
 * allowlisted answer needs no SQLite at all (loading the addon, opening the WAL database and
 * closing it cost more than the rest of the hook). It is a cache, never an authority:
 * - written by a process that holds the operator's key (the app, `muster serve`, a command), it
 *   carries one signature over all of it (`attested`): the DB it belongs to, the trust ledger it
 *   follows (`trust-ledger.ts`: its last record, the inode of its file, the keys it revoked or
 *   rotated) and, for each rule, its patterns, its signature and whether it counts (a valid
 *   signature, and the ledger's live version of that rule), checked before signing. So the hook
 *   verifies one signature whatever the number of rules, and a rule answers only when it counts
 *   and its signature is made by a key the hook trusts (after the ledger's revocations). A mirror
 *   without a valid attestation by a key the hook trusts (one a hook wrote, one edited) answers
 *   nothing: the full hook reads the DB and the ledger;
 * - it names the state DB file it was copied from and the ledger file it follows (device and
 *   inode): a DB replaced or recreated, or any change of the ledger (its file is replaced whole
 *   on every record), makes it void, so a mirror copied before a rule was deleted allows nothing;
 * - it exists only while it matches the DB's committed rules: every change of the rules deletes
 *   it in the transaction that makes the change (under SQLite's write lock), and it is written
 *   again from the committed rules in a transaction of its own (`BEGIN IMMEDIATE`, so no change
 *   can land between reading the rules and renaming the copy into place);
 * - anything unexpected (no file, a torn or edited file, another DB, another ledger, no rule
 *   matching) sends the hook to the DB as before.
 * Light on purpose (node:fs and node:path): the hook reads it on every tool call.
 */
import { closeSync, fsyncSync, openSync, readFileSync, statSync, unlinkSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { firstAllowing, ruleLabel, type CallToMatch, type RuleSpec } from '../../shared/approvals/allow-rules'
import { replaceFileSync } from '../replace-file'
import { DecisionTrust, readSignature, rulePayload, type DecisionSigner, type SignatureRef } from './decision-trust'
import { keysAfter, ledgerFileIdentity, ruleSigText, type LedgerState } from './trust-ledger'

/** The mirror's file name, beside the state DB. */
export const MIRROR_FILE = 'allowlist-mirror.json'
const FORMAT = 'muster.allowlist-mirror/2'
/** A mirror larger than this is not one (thousands of rules fit). */
const MAX_MIRROR_BYTES = 4 * 1024 * 1024

/** One rule as mirrored: its id, patterns and stored signature (and, in an attested mirror, whether it counts). */
export interface MirroredRule extends RuleSpec {
  id: number
  signature: SignatureRef | null
  valid?: boolean
}

/** The trust ledger a mirror follows: its last record, its file's identity, and the keys it revoked or rotated. */
export interface MirrorLedger {
  seq: number
  head: string
  /** The ledger file's device and inode, or null when there was none. */
  file: string | null
  revoked: string[]
  rotations: [string, string][]
}

/** A mirror as read: its rules, the DB and ledger it belongs to, and its attestation. */
export interface Mirror {
  rules: MirroredRule[]
  state_db: string
  ledger: MirrorLedger
  attested: SignatureRef
}

/** The text a mirror's attestation is made over: the DB and ledger it belongs to and every rule with its signature and whether it counts. */
export function mirrorPayload(stateDb: string, ledger: MirrorLedger, rules: readonly MirroredRule[]): string {
  return JSON.stringify([
    FORMAT,
    stateDb,
    [ledger.seq, ledger.head, ledger.file, ledger.revoked, ledger.rotations],
    rules.map((r) => [
      r.id,
      r.agent_pattern,
      r.tool_name,
      r.input_pattern,
      r.signature?.key ?? null,
      r.signature?.sig ?? null,
      r.valid === true
    ])
  ])
}

/** Whether a rule's own signature is valid (made by the key it names, whoever trusts that key). */
function validSignature(r: MirroredRule): boolean {
  return !!r.signature && new DecisionTrust([r.signature.key]).check(rulePayload(r), r.signature).ok
}

/** The identity of the state DB file: device and inode, as decimal strings. */
function fileIdentity(file: string): string {
  const s = statSync(file, { bigint: true })
  return `${s.dev}:${s.ino}`
}

/** The mirror of the state DB at `dbFile`. */
export function mirrorPath(dbFile: string): string {
  return join(dirname(dbFile), MIRROR_FILE)
}

/** Deletes the mirror (before a change of the rules); a missing one is fine, any other failure throws. */
export function dropMirror(dbFile: string): void {
  try {
    unlinkSync(mirrorPath(dbFile))
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return
    throw err
  }
  syncFolder(dirname(dbFile))
}

/** Makes a deletion or rename in `dir` durable where the platform allows it (not on Windows). */
function syncFolder(dir: string): void {
  let fd: number | null = null
  try {
    fd = openSync(dir, 'r')
    fsyncSync(fd)
  } catch {
    // a folder that cannot be opened or synced (Windows): the rename or unlink stands as it is
  } finally {
    if (fd !== null) closeSync(fd)
  }
}

/**
 * Writes the mirror of `rules` (every rule, oldest first, signed or not) for the DB at `dbFile`,
 * attested with `signer` (the operator's key): a temporary file renamed into place. A rule counts
 * when its signature is valid and `ledger` (the checked trust ledger; null when it cannot be
 * trusted) has that very version of it live.
 */
export function writeMirror(dbFile: string, rules: readonly MirroredRule[], signer: DecisionSigner, ledger: LedgerState | null): void {
  const target = mirrorPath(dbFile)
  const stateDb = fileIdentity(dbFile)
  const mirrored: MirroredRule[] = rules.map((r) => ({
    id: r.id,
    agent_pattern: r.agent_pattern,
    tool_name: r.tool_name,
    input_pattern: r.input_pattern,
    signature: r.signature,
    valid: !!ledger && !!r.signature && ledger.live.get(r.id) === ruleSigText(r.signature.key, r.signature.sig) && validSignature(r)
  }))
  const bound: MirrorLedger = {
    seq: ledger?.seq ?? 0,
    head: ledger?.head ?? '',
    file: ledgerFileIdentity(dirname(dbFile)),
    revoked: ledger?.revoked ?? [],
    rotations: ledger?.rotations ?? []
  }
  const body = {
    format: FORMAT,
    state_db: stateDb,
    ledger: bound,
    rules: mirrored,
    attested: signer.sign(mirrorPayload(stateDb, bound, mirrored))
  }
  replaceFileSync(target, JSON.stringify(body))
}

/**
 * The mirrored rules for the state DB at `dbFile`, oldest first, or null when there is no usable
 * mirror (missing, unreadable, not this DB's, not following the ledger file as it is now, not
 * attested, or not exactly in the mirror's shape): the caller then reads the DB.
 */
export function readMirror(dbFile: string): MirroredRule[] | null {
  return readMirrorFile(dbFile)?.rules ?? null
}

const isKey = (k: unknown): k is string => typeof k === 'string'

/** The ledger a mirror names, or null when it is not in shape. */
function readMirrorLedger(v: unknown): MirrorLedger | null {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null
  const o = v as Record<string, unknown>
  if (!Number.isSafeInteger(o.seq) || typeof o.head !== 'string' || (o.file !== null && typeof o.file !== 'string')) return null
  if (!Array.isArray(o.revoked) || !o.revoked.every(isKey) || !Array.isArray(o.rotations)) return null
  const rotations = o.rotations as unknown[]
  if (!rotations.every((r) => Array.isArray(r) && r.length === 2 && isKey(r[0]) && isKey(r[1]))) return null
  return { seq: o.seq as number, head: o.head, file: o.file, revoked: o.revoked, rotations: rotations as [string, string][] }
}

/** The mirror of the state DB at `dbFile` with its attestation, or null when there is no usable one (as `readMirror`). */
export function readMirrorFile(dbFile: string): Mirror | null {
  try {
    const text = readFileSync(mirrorPath(dbFile), 'utf8')
    if (text.length > MAX_MIRROR_BYTES) return null
    const o = JSON.parse(text) as Record<string, unknown>
    if (!o || typeof o !== 'object' || o.format !== FORMAT || typeof o.state_db !== 'string' || !Array.isArray(o.rules)) return null
    if (o.state_db !== fileIdentity(dbFile)) return null
    const ledger = readMirrorLedger(o.ledger)
    // a mirror written before the ledger's last change (its file is replaced whole on every record) is void
    if (!ledger || ledger.file !== ledgerFileIdentity(dirname(dbFile))) return null
    const attested = readSignature(o.attested)
    if (!attested) return null
    const rules: MirroredRule[] = []
    let last = 0
    for (const r of o.rules as unknown[]) {
      if (!r || typeof r !== 'object' || Array.isArray(r)) return null
      const { id, agent_pattern, tool_name, input_pattern, signature, valid } = r as Record<string, unknown>
      if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= last) return null
      if (typeof agent_pattern !== 'string' || typeof tool_name !== 'string' || typeof input_pattern !== 'string') return null
      if (typeof valid !== 'boolean') return null
      const sig = signature === null ? null : readSignature(signature)
      if (signature !== null && !sig) return null
      rules.push({ id, agent_pattern, tool_name, input_pattern, signature: sig, valid })
      last = id
    }
    return { rules, state_db: o.state_db, ledger, attested }
  } catch {
    return null
  }
}

/**
 * The first mirrored rule (oldest first) that counts and that allows `call`, or null: the same
 * answer as the DB's `AllowlistStore.firstMatch`. The hook's keys are `trust`'s, after the
 * ledger's rotations and revocations; the mirror's attestation must verify against one of them
 * (one signature checked for the whole mirror), else no rule of it answers. A rule's patterns are
 * run only once it counts and its signature's key is trusted.
 */
export function firstMirroredMatch(mirror: Mirror, call: CallToMatch, trust: DecisionTrust): MirroredRule | null {
  const changed = mirror.ledger.rotations.length > 0 || mirror.ledger.revoked.length > 0
  const keys = changed ? keysAfter(trust.keys, mirror.ledger.rotations, mirror.ledger.revoked) : trust.keys
  const after = changed ? new DecisionTrust(keys) : trust
  if (!mirror.attested || !after.check(mirrorPayload(mirror.state_db, mirror.ledger, mirror.rules), mirror.attested).ok) return null
  return firstAllowing(
    mirror.rules.filter((r) => r.valid === true && !!r.signature && keys.has(r.signature.key)),
    call
  )
}

/** The reason the harness shows for a call an allowlist rule allowed. */
export function allowlistedReason(rule: RuleSpec): string {
  return `allowed by Muster allowlist rule ${ruleLabel(rule)}`
}
