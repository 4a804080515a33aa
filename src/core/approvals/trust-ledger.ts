/**
 * The trust ledger of a home: every change of what the hooks trust, as a signed, ordered record.
 * A rule saved, changed or deleted, an operator key untrusted: each is one record (its sequence
 * number, the hash of the record before it, the change, the operator's signature over all of it),
 * appended by a process holding the operator's key. What counts is what the ledger says:
 * - an allowlist rule answers only while the ledger's last word on its id is that rule with that
 *   very signature, so a deleted rule's row put back into the state DB, or an older version of a
 *   changed rule, answers nothing (its signature is still valid: the ledger is what withdrew it);
 * - a key the ledger revoked counts for nothing, even where a hook's `--operator-keys` still lists
 *   it (no reinstall needed); a rotation hands a key's trust to its successor.
 * The ledger is kept twice: in the state DB (`trust_ledger`, migration 12) and in
 * `trust-ledger.json` beside it, a file replaced whole (a new inode) on every record. The longer
 * of the two counts when one extends the other; when they disagree, nothing the ledger grants
 * counts (no rule answers) until the operator's Muster repairs it. The allowlist mirror
 * (`allowlist-mirror.ts`) is bound to the file's inode, so a mirror copied before a change is
 * void after it. Checking costs one signature (the last record's: the hash chain binds the rest)
 * plus two per rotation. Light on purpose (node:crypto, node:fs): the hook reads it.
 */
import { createHash } from 'node:crypto'
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { stableJson } from '../../shared/approvals/tool-call'
import type { Db } from '../sqlite'
import { replaceFileSync } from '../replace-file'
import { DecisionTrust, KEY_ID_RE, readSignature, type DecisionSigner, type SignatureRef } from './decision-trust'

/** The ledger's file, beside the state DB. */
export const LEDGER_FILE = 'trust-ledger.json'
const FORMAT = 'muster.trust-ledger/1'
/** A ledger file larger than this is not one. */
const MAX_LEDGER_BYTES = 16 * 1024 * 1024

/** A rule as the ledger names it: its id and its signature. */
export interface RuleRef {
  id: number
  key: string
  sig: string
}

/** One change. */
export type LedgerBody =
  /** The signed rules a home had when its ledger began. */
  | { op: 'rules.adopt'; rules: RuleRef[] }
  /** A rule saved (new, or a new version of rule `id`). */
  | { op: 'rule.add'; rule: RuleRef }
  /** A rule deleted. */
  | { op: 'rule.revoke'; rule: RuleRef }
  /** An operator key no longer trusted. */
  | { op: 'key.revoke'; key: string }
  /** The operator's key replaced by `to` (the record is signed by `from`; `proof` is `to`'s signature over the handover). */
  | { op: 'key.rotate'; from: string; to: string; proof: string }

/** One record as stored. */
export interface LedgerRecord {
  seq: number
  /** The hash of the record before (`''` for the first). */
  prev: string
  at: string
  body: LedgerBody
  sig: SignatureRef
}

/** What a ledger grants and withdraws, once checked. */
export interface LedgerState {
  seq: number
  /** The hash of the last record (`''` for an empty ledger). */
  head: string
  /** Rule id -> the signature (`key sig`) of its live version. */
  live: Map<number, string>
  /** Keys revoked, and keys rotated away, in order. */
  revoked: string[]
  rotations: [string, string][]
}

/** A checked ledger: the keys that count after it, or why it cannot be trusted (and the keys it revokes anyway). */
export type LedgerCheck = { ok: true; state: LedgerState; keys: Set<string> } | { ok: false; why: string; keys: Set<string> }

/** The text a record's signature is made over. */
export function recordPayload(r: Pick<LedgerRecord, 'seq' | 'prev' | 'at' | 'body'>): string {
  return JSON.stringify([FORMAT, r.seq, r.prev, r.at, stableJson(r.body)])
}

/** The text a rotation's successor signs. */
export function rotationPayload(from: string, to: string): string {
  return JSON.stringify(['muster.key-rotate/1', from, to])
}

/** The hash of a record (what the next one names as `prev`). */
export function recordHash(r: LedgerRecord): string {
  return createHash('sha256')
    .update(`${recordPayload(r)}\n${r.sig.key}\n${r.sig.sig}`)
    .digest('base64url')
}

/** A rule's signature as the ledger compares it. */
export const ruleSigText = (key: string, sig: string): string => `${key} ${sig}`

const isRuleRef = (v: unknown): v is RuleRef => {
  const o = v as RuleRef
  return !!o && typeof o === 'object' && Number.isSafeInteger(o.id) && typeof o.key === 'string' && typeof o.sig === 'string'
}

/** Reads one stored record, or null when it is not one. */
export function readRecord(v: unknown): LedgerRecord | null {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null
  const o = v as Record<string, unknown>
  const sig = readSignature(o.sig)
  if (!Number.isSafeInteger(o.seq) || typeof o.prev !== 'string' || typeof o.at !== 'string' || !sig) return null
  const b = o.body as Record<string, unknown> | null
  if (!b || typeof b !== 'object') return null
  let body: LedgerBody
  if (b.op === 'rules.adopt' && Array.isArray(b.rules) && b.rules.every(isRuleRef))
    body = { op: 'rules.adopt', rules: b.rules.map((r: RuleRef) => ({ id: r.id, key: r.key, sig: r.sig })) }
  else if ((b.op === 'rule.add' || b.op === 'rule.revoke') && isRuleRef(b.rule))
    body = { op: b.op, rule: { id: b.rule.id, key: b.rule.key, sig: b.rule.sig } }
  else if (b.op === 'key.revoke' && typeof b.key === 'string') body = { op: 'key.revoke', key: b.key }
  else if (b.op === 'key.rotate' && typeof b.from === 'string' && typeof b.to === 'string' && typeof b.proof === 'string')
    body = { op: 'key.rotate', from: b.from, to: b.to, proof: b.proof }
  else return null
  return { seq: o.seq as number, prev: o.prev, at: o.at, body, sig }
}

/** Every key a list of records revokes or rotates away, whatever else is wrong with them. */
function withdrawnKeys(records: readonly LedgerRecord[]): Set<string> {
  const out = new Set<string>()
  for (const r of records) {
    if (r.body.op === 'key.revoke') out.add(r.body.key)
    if (r.body.op === 'key.rotate') out.add(r.body.from)
  }
  return out
}

/**
 * Checks a ledger against the keys a hook (or this home) trusts: numbered from 1 without a gap,
 * each record naming the hash of the one before, rotations signed by the key they retire and by
 * its successor, and the last record signed by a key still trusted before it. The keys that count
 * afterwards are the given ones, rotated and without the revoked ones.
 */
export function checkLedger(records: readonly LedgerRecord[], keys: Iterable<string>): LedgerCheck {
  const trust = new Set([...keys].filter((k) => KEY_ID_RE.test(k)))
  const broken = (why: string): LedgerCheck => {
    const withdrawn = withdrawnKeys(records)
    return { ok: false, why, keys: new Set([...trust].filter((k) => !withdrawn.has(k))) }
  }
  const state: LedgerState = { seq: 0, head: '', live: new Map(), revoked: [], rotations: [] }
  const revoked = new Set<string>()
  for (const [i, r] of records.entries()) {
    if (r.seq !== i + 1) return broken(`record ${i + 1} is numbered ${r.seq}`)
    if (r.prev !== state.head) return broken(`record ${r.seq} does not follow record ${i}`)
    const payload = recordPayload(r)
    // the last record vouches for all before it (each names the hash of the one before)
    if (i === records.length - 1 && !new DecisionTrust(trust).check(payload, r.sig).ok)
      return broken(`its last record (${r.seq}) is not signed by a key this gate trusts`)
    const b = r.body
    if (b.op === 'rules.adopt') for (const x of b.rules) state.live.set(x.id, ruleSigText(x.key, x.sig))
    else if (b.op === 'rule.add') state.live.set(b.rule.id, ruleSigText(b.rule.key, b.rule.sig))
    else if (b.op === 'rule.revoke') state.live.delete(b.rule.id)
    else if (b.op === 'key.revoke') {
      revoked.add(b.key)
      state.revoked.push(b.key)
    } else {
      const byFrom = r.sig.key === b.from && new DecisionTrust([b.from]).check(payload, r.sig).ok
      const byTo = new DecisionTrust([b.to]).check(rotationPayload(b.from, b.to), { key: b.to, sig: b.proof }).ok
      if (!byFrom || !byTo) return broken(`its rotation at record ${r.seq} is not signed by both keys`)
      if (trust.has(b.from)) trust.add(b.to)
      trust.delete(b.from)
      revoked.add(b.from)
      state.rotations.push([b.from, b.to])
    }
    for (const k of revoked) trust.delete(k)
    state.seq = r.seq
    state.head = recordHash(r)
  }
  return { ok: true, state, keys: trust }
}

/** The keys that count after a ledger's rotations and revocations (as `checkLedger` computes them), from `keys`. */
export function keysAfter(
  keys: Iterable<string>,
  rotations: readonly (readonly [string, string])[],
  revoked: readonly string[]
): Set<string> {
  const trust = new Set([...keys].filter((k) => KEY_ID_RE.test(k)))
  for (const [from, to] of rotations) {
    if (trust.has(from)) trust.add(to)
    trust.delete(from)
  }
  // a key revoked or rotated away never comes back
  for (const k of [...revoked, ...rotations.map(([from]) => from)]) trust.delete(k)
  return trust
}

/**
 * The identity of the ledger file in `dir`, or null when there is none: device, inode and size. The
 * file is replaced whole and grows with every record, so a freed inode number reused by a later
 * version still gives another identity.
 */
export function ledgerFileIdentity(dir: string): string | null {
  try {
    const s = statSync(join(dir, LEDGER_FILE), { bigint: true })
    return `${s.dev}:${s.ino}:${s.size}`
  } catch {
    return null
  }
}

/** The records of the ledger file in `dir`: null when there is none, `'damaged'` when it is not a ledger. */
export function readLedgerFile(dir: string): LedgerRecord[] | null | 'damaged' {
  let text: string
  try {
    text = readFileSync(join(dir, LEDGER_FILE), 'utf8')
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? null : 'damaged'
  }
  try {
    if (text.length > MAX_LEDGER_BYTES) return 'damaged'
    const o = JSON.parse(text) as { format?: unknown; records?: unknown }
    if (o?.format !== FORMAT || !Array.isArray(o.records)) return 'damaged'
    const records = o.records.map(readRecord)
    return records.every((r) => r !== null) ? (records as LedgerRecord[]) : 'damaged'
  } catch {
    return 'damaged'
  }
}

/** Writes the ledger file in `dir` whole: a temporary file renamed into place (so a new inode every time). */
function writeLedgerFile(dir: string, records: readonly LedgerRecord[]): void {
  const file = join(dir, LEDGER_FILE)
  replaceFileSync(file, `${JSON.stringify({ format: FORMAT, records })}\n`)
}

/** The ledger of one state DB (and the file beside it, when the DB has a folder). */
export class TrustLedger {
  constructor(
    private readonly db: Db | null,
    /** The state DB's folder, or null for a DB in memory (no file). */
    readonly dir: string | null
  ) {}

  /** True when the DB has the ledger's table (a state DB from before migration 12 has none). */
  private hasTable(): boolean {
    return !!this.db?.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'trust_ledger'").get()
  }

  /** The DB's records, or `'damaged'`. */
  private dbRecords(): LedgerRecord[] | 'damaged' {
    if (!this.db || !this.hasTable()) return []
    const rows = this.db.prepare('SELECT seq, record FROM trust_ledger ORDER BY seq').all() as { seq: number; record: string }[]
    const out: LedgerRecord[] = []
    for (const row of rows) {
      let r: LedgerRecord | null = null
      try {
        r = readRecord(JSON.parse(row.record))
      } catch {
        r = null
      }
      if (!r || r.seq !== row.seq) return 'damaged'
      out.push(r)
    }
    return out
  }

  /**
   * The records that count: the DB's and the file's, the longer where one extends the other (a
   * damaged or missing file is left out); `why` when they disagree or the DB's are damaged.
   */
  records(): { records: LedgerRecord[]; behind: 'db' | 'file' | null } | { why: string; seen: LedgerRecord[] } {
    const db = this.dbRecords()
    const file = this.dir ? readLedgerFile(this.dir) : null
    const fileRecs = file === 'damaged' ? null : file
    if (db === 'damaged') return { why: 'its records in the state DB are damaged', seen: fileRecs ?? [] }
    if (!fileRecs) return { records: db, behind: this.dir && db.length ? 'file' : null }
    const common = Math.min(db.length, fileRecs.length)
    for (let i = 0; i < common; i++)
      if (recordHash(db[i]!) !== recordHash(fileRecs[i]!))
        return { why: `${LEDGER_FILE} and the state DB disagree at record ${i + 1}`, seen: [...db, ...fileRecs] }
    if (fileRecs.length > db.length) return { records: fileRecs, behind: 'db' }
    return { records: db, behind: db.length > fileRecs.length ? 'file' : null }
  }

  /** Checks the ledger against `keys` (see `checkLedger`). */
  check(keys: Iterable<string>): LedgerCheck {
    const got = this.records()
    if ('why' in got) {
      const withdrawn = withdrawnKeys(got.seen)
      return { ok: false, why: got.why, keys: new Set([...keys].filter((k) => KEY_ID_RE.test(k) && !withdrawn.has(k))) }
    }
    return checkLedger(got.records, keys)
  }

  /**
   * Brings the DB and the file to the same records, inside the caller's write transaction: the
   * longer one's where one extends the other and it checks against `keys`; otherwise (an edit, a
   * record some other key signed) the longest run of records from the first, in either copy,
   * whose last one a trusted key signed: what follows it was never the operator's. True when it
   * changed either copy.
   */
  sync(keys: Iterable<string>): boolean {
    if (!this.db || !this.hasTable()) return false
    const list = [...keys]
    const got = this.records()
    const db = this.dbRecords()
    const file = this.dir ? readLedgerFile(this.dir) : null
    let records: LedgerRecord[]
    if (!('why' in got) && checkLedger(got.records, list).ok) {
      if (!got.behind) return false
      records = got.records
    } else {
      const trusted = (a: LedgerRecord[] | null | 'damaged'): LedgerRecord[] => {
        if (!Array.isArray(a)) return []
        for (let n = a.length; n > 0; n--) if (checkLedger(a.slice(0, n), list).ok) return a.slice(0, n)
        return []
      }
      const [fromDb, fromFile] = [trusted(db), trusted(file)]
      records = fromFile.length > fromDb.length ? fromFile : fromDb
    }
    const same = (a: readonly LedgerRecord[] | null | 'damaged'): boolean =>
      Array.isArray(a) && a.length === records.length && a.every((r, i) => recordHash(r) === recordHash(records[i]!))
    if (!same(db)) {
      this.db.prepare('DELETE FROM trust_ledger').run()
      const insert = this.db.prepare('INSERT INTO trust_ledger (seq, record) VALUES (?, ?)')
      for (const r of records) insert.run(r.seq, JSON.stringify(r))
    }
    if (this.dir && !same(file)) writeLedgerFile(this.dir, records)
    return true
  }

  /**
   * Appends one change signed by `signer`, inside the caller's write transaction (the DB row, then
   * the file), after `sync`.
   */
  append(body: LedgerBody, signer: DecisionSigner): LedgerRecord {
    if (!this.db || !this.hasTable()) throw new Error('this state DB has no trust ledger (it predates migration 12)')
    const got = this.records()
    if ('why' in got) throw new Error(`the trust ledger cannot be trusted: ${got.why}`)
    const last = got.records[got.records.length - 1]
    const next = { seq: (last?.seq ?? 0) + 1, prev: last ? recordHash(last) : '', at: new Date().toISOString(), body }
    const record: LedgerRecord = { ...next, sig: signer.sign(recordPayload(next)) }
    this.db.prepare('INSERT INTO trust_ledger (seq, record) VALUES (?, ?)').run(record.seq, JSON.stringify(record))
    if (this.dir) writeLedgerFile(this.dir, [...got.records, record])
    return record
  }

  /** True when the ledger has no record in either copy. */
  empty(): boolean {
    const got = this.records()
    return !('why' in got) && got.records.length === 0
  }
}
