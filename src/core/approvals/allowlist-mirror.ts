/**
 * A copy of the allowlist beside Muster's state DB (`allowlist-mirror.json`), so that the hook's
 * allowlisted answer needs no SQLite at all (loading the addon, opening the WAL database and
 * closing it cost more than the rest of the hook). It is a cache, never an authority:
 * - every rule in it carries the operator's own signature, checked by the hook exactly as a rule
 *   read from the DB is (a rule without a valid signature from a trusted key answers nothing);
 * - written by a process that holds the operator's key (the app, `muster serve`, a command), it
 *   also carries one signature over all of it (`attested`: the DB it belongs to and, for each
 *   rule, its patterns, its signature and whether that signature is valid, checked before
 *   signing), so the hook verifies one signature instead of one per rule; a rule still answers
 *   only when its own signature is valid and made by a key the hook trusts. A mirror without it
 *   (written by a hook, which holds no key) or whose attestation does not verify against a key
 *   the hook trusts has each rule's signature checked, as before;
 * - it names the state DB file it was copied from (device and inode): a DB replaced or recreated
 *   makes it void;
 * - it exists only while it matches the DB's committed rules: every change of the rules deletes
 *   it in the transaction that makes the change (under SQLite's write lock), and it is written
 *   again from the committed rules in a transaction of its own (`BEGIN IMMEDIATE`, so no change
 *   can land between reading the rules and renaming the copy into place);
 * - anything unexpected (no file, a torn or edited file, another DB, no rule matching) sends the
 *   hook to the DB as before. An agent able to write this file can do no more than one able to
 *   write the state DB: offer rules the operator signed.
 * Light on purpose (node:fs and node:path): the hook reads it on every tool call.
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { ruleLabel, ruleMatches, type CallToMatch, type RuleSpec } from '../../shared/approvals/allow-rules'
import { DecisionTrust, readSignature, rulePayload, type DecisionSigner, type SignatureRef } from './decision-trust'

/** The mirror's file name, beside the state DB. */
export const MIRROR_FILE = 'allowlist-mirror.json'
const FORMAT = 'muster.allowlist-mirror/1'
/** A mirror larger than this is not one (thousands of rules fit). */
const MAX_MIRROR_BYTES = 4 * 1024 * 1024

/** One rule as mirrored: its id, patterns and stored signature (and, in an attested mirror, whether that signature is valid). */
export interface MirroredRule extends RuleSpec {
  id: number
  signature: SignatureRef | null
  valid?: boolean
}

/** A mirror as read: its rules, the DB it belongs to, and its attestation (null when it has none). */
export interface Mirror {
  rules: MirroredRule[]
  state_db: string
  attested: SignatureRef | null
}

/** The text a mirror's attestation is made over: the DB it belongs to and every rule with its signature and validity. */
export function mirrorPayload(stateDb: string, rules: readonly MirroredRule[]): string {
  return JSON.stringify([
    'muster.allowlist-mirror/1',
    stateDb,
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
 * Writes the mirror of `rules` (every rule, oldest first, signed or not) for the DB at `dbFile`: a
 * temporary file renamed into place. With `signer` (the operator's key), each rule's signature is
 * checked and the whole mirror attested.
 */
export function writeMirror(dbFile: string, rules: readonly MirroredRule[], signer?: DecisionSigner): void {
  const target = mirrorPath(dbFile)
  const tmp = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`
  const stateDb = fileIdentity(dbFile)
  const mirrored: MirroredRule[] = rules.map((r) => ({
    id: r.id,
    agent_pattern: r.agent_pattern,
    tool_name: r.tool_name,
    input_pattern: r.input_pattern,
    signature: r.signature,
    ...(signer ? { valid: validSignature(r) } : {})
  }))
  const body = {
    format: FORMAT,
    state_db: stateDb,
    rules: mirrored,
    ...(signer ? { attested: signer.sign(mirrorPayload(stateDb, mirrored)) } : {})
  }
  try {
    writeFileSync(tmp, JSON.stringify(body), { mode: 0o600 })
    renameSync(tmp, target)
  } catch (err) {
    try {
      unlinkSync(tmp)
    } catch {
      // never written
    }
    throw err
  }
}

/**
 * The mirrored rules for the state DB at `dbFile`, oldest first, or null when there is no usable
 * mirror (missing, unreadable, not this DB's, or not exactly in the mirror's shape): the caller
 * then reads the DB.
 */
export function readMirror(dbFile: string): MirroredRule[] | null {
  return readMirrorFile(dbFile)?.rules ?? null
}

/** The mirror of the state DB at `dbFile` with its attestation, or null when there is no usable one (as `readMirror`). */
export function readMirrorFile(dbFile: string): Mirror | null {
  try {
    const text = readFileSync(mirrorPath(dbFile), 'utf8')
    if (text.length > MAX_MIRROR_BYTES) return null
    const o = JSON.parse(text) as Record<string, unknown>
    if (!o || typeof o !== 'object' || o.format !== FORMAT || typeof o.state_db !== 'string' || !Array.isArray(o.rules)) return null
    if (o.state_db !== fileIdentity(dbFile)) return null
    const attested = o.attested === undefined ? null : readSignature(o.attested)
    if (o.attested !== undefined && !attested) return null
    const rules: MirroredRule[] = []
    let last = 0
    for (const r of o.rules as unknown[]) {
      if (!r || typeof r !== 'object' || Array.isArray(r)) return null
      const { id, agent_pattern, tool_name, input_pattern, signature, valid } = r as Record<string, unknown>
      if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= last) return null
      if (typeof agent_pattern !== 'string' || typeof tool_name !== 'string' || typeof input_pattern !== 'string') return null
      if (valid !== undefined && typeof valid !== 'boolean') return null
      const sig = signature === null ? null : readSignature(signature)
      if (signature !== null && !sig) return null
      rules.push({ id, agent_pattern, tool_name, input_pattern, signature: sig, ...(valid === undefined ? {} : { valid }) })
      last = id
    }
    return { rules, state_db: o.state_db, attested }
  } catch {
    return null
  }
}

/**
 * The first mirrored rule (oldest first) that a trusted operator signed and that allows `call`,
 * or null: the same answer as the DB's `AllowlistStore.firstMatch`. The signature is checked
 * before the patterns are, as there: an unsigned rule's patterns are never run. In a mirror whose
 * attestation verifies against a trusted key, a rule's signature counts as its attested validity
 * (one signature checked for the whole mirror); otherwise each rule's own signature is checked.
 */
export function firstMirroredMatch(mirror: Mirror, call: CallToMatch, trust: DecisionTrust): MirroredRule | null {
  const attested = !!mirror.attested && trust.check(mirrorPayload(mirror.state_db, mirror.rules), mirror.attested).ok
  const signed = (r: MirroredRule): boolean =>
    attested ? r.valid === true && !!r.signature && trust.keys.has(r.signature.key) : trust.checkRule(r, r.signature).ok
  return mirror.rules.find((r) => signed(r) && ruleMatches(r, call)) ?? null
}

/** The reason the harness shows for a call an allowlist rule allowed. */
export function allowlistedReason(rule: RuleSpec): string {
  return `allowed by Muster allowlist rule ${ruleLabel(rule)}`
}
