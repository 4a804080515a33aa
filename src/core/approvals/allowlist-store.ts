/**
 * The approvals allowlist in Muster's state DB (table `approval_rules`, migration 7): rules edited
 * in the UI and read by `muster approve-hook` before it asks anyone. A rule that answers a hook
 * counts a hit. Matching itself is the shared, pure `allow-rules.ts`. Every rule is signed by
 * the operator's key when saved, and every save and deletion is a record of the trust ledger
 * (`trust-ledger.ts`); a rule answers a hook only with a valid signature from a trusted key and as
 * the ledger's live version of that rule: a row an agent inserted, a rule from before signing, or
 * a deleted or older version put back answers nothing. Every change of the rules also replaces
 * their mirror beside the DB (`allowlist-mirror.ts`), which the hook reads first. No zod here:
 * the hook process loads this module.
 */
import { dirname } from 'node:path'
import { ApiError } from '../../shared/api-error'
import {
  askRuleHolds,
  firstAllowing,
  isAskRule,
  ruleDeclined,
  ruleLabel,
  ruleProblem,
  type CallToMatch,
  type RuleSpec
} from '../../shared/approvals/allow-rules'
import type { AllowRule } from '../../shared/contract/approvals-types'
import type { Db } from '../sqlite'
import { DecisionTrust, readSignature, rulePayload, type DecisionSigner, type SignatureRef } from './decision-trust'
import { dropMirror, readMirrorFile, writeMirror } from './allowlist-mirror'
import { ruleSigText, TrustLedger, type LedgerBody, type LedgerCheck } from './trust-ledger'

interface RuleRow {
  id: number
  agent_pattern: string
  tool_name: string
  input_pattern: string
  note: string | null
  created_at: string
  hits: number
  last_hit_at: string | null
  signature?: string | null
}

const COLUMNS = 'id, agent_pattern, tool_name, input_pattern, note, created_at, hits, last_hit_at'

/** A rule with its stored signature (what an allowlist decision carries). */
export type SignedRule = AllowRule & { signature: SignatureRef | null }

/** The operator keys a store signs with and checks against. */
export interface RuleKeys {
  /** The keys trusted before the trust ledger's revocations and rotations. */
  trust(): DecisionTrust
  /** Absent in the hook: it never signs. */
  signer?(): DecisionSigner
}

function parseSignature(text: string | null | undefined): SignatureRef | null {
  if (!text) return null
  try {
    return readSignature(JSON.parse(text))
  } catch {
    return null
  }
}

/** What a rule is saved from: its patterns, a note, and `id` to change an existing rule. */
export interface RuleInput extends RuleSpec {
  id?: number
  note?: string
}

/** Allowlist rules of one state DB. */
export class AllowlistStore {
  private signed: boolean | null = null
  /** The trust ledger beside this DB. */
  readonly ledger: TrustLedger

  constructor(
    private readonly db: Db,
    private readonly keys: RuleKeys,
    /** The ledger as checked already (the hook checks it once for rules and decisions); default: checked against `trust()` on each read. */
    private readonly checked?: LedgerCheck
  ) {
    const file = this.dbFile()
    this.ledger = new TrustLedger(db, file ? dirname(file) : null)
  }

  /** The ledger checked against the trusted keys: what is live, and the keys that count after it. */
  checkLedger(): LedgerCheck {
    return this.checked ?? this.ledger.check(this.keys.trust().keys)
  }

  /** True when the DB has the rules table (a state DB from before migration 7 has none). */
  static available(db: Db): boolean {
    return !!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'approval_rules'").get()
  }

  /** The columns read: with `signature` once migration 8 added it. */
  private columns(): string {
    this.signed ??= (this.db.prepare('PRAGMA table_info(approval_rules)').all() as { name: string }[]).some((c) => c.name === 'signature')
    return this.signed ? `${COLUMNS}, signature` : COLUMNS
  }

  private toRule(r: RuleRow, ledger: LedgerCheck): SignedRule {
    const { signature: text, ...rest } = r
    const signature = parseSignature(text)
    const v = new DecisionTrust(ledger.keys).checkRule(r, signature)
    const why = !v.ok
      ? v.why
      : !ledger.ok
        ? `the trust ledger cannot be trusted (${ledger.why})`
        : ledger.state.live.get(r.id) !== ruleSigText(signature!.key, signature!.sig)
          ? 'withdrawn: the trust ledger has no such version of this rule (deleted, changed, or from before the ledger)'
          : null
    return { ...rest, label: ruleLabel(r), trusted: why === null, untrusted_reason: why, signature }
  }

  /** Every rule, oldest first (the order they are tried in), with whether it counts (a trusted operator signed it, and the ledger has it live). */
  list(): SignedRule[] {
    const ledger = this.checkLedger()
    return (this.db.prepare(`SELECT ${this.columns()} FROM approval_rules ORDER BY id`).all() as RuleRow[]).map((r) =>
      this.toRule(r, ledger)
    )
  }

  /** One rule, or not_found. */
  get(id: number): SignedRule {
    const row = this.db.prepare(`SELECT ${this.columns()} FROM approval_rules WHERE id = ?`).get(id) as RuleRow | undefined
    if (!row) throw new ApiError(`no allowlist rule #${id}`, 'not_found')
    return this.toRule(row, this.checkLedger())
  }

  /** The rule as the contract shows it (without the signature itself). */
  static shown(r: SignedRule): AllowRule {
    const { signature: _s, ...rule } = r
    return rule
  }

  /** Adds a rule or changes one; refuses an unusable rule or a duplicate of another rule. */
  save(input: RuleInput): SignedRule {
    const spec: RuleSpec = {
      agent_pattern: input.agent_pattern.trim(),
      tool_name: input.tool_name.trim(),
      input_pattern: input.input_pattern.trim()
    }
    const problem = ruleProblem(spec)
    if (problem) throw new ApiError(`invalid allowlist rule: ${problem}`, 'invalid_input')
    const note = input.note?.trim() || null
    if (!this.keys.signer) throw new ApiError('this process cannot sign allowlist rules', 'conflict')
    const signer = this.keys.signer()
    const signed = signer.sign(rulePayload(spec))
    const signature = JSON.stringify(signed)
    const dup = this.db
      .prepare('SELECT id FROM approval_rules WHERE agent_pattern = ? AND tool_name = ? AND input_pattern = ?')
      .get(spec.agent_pattern, spec.tool_name, spec.input_pattern) as { id: number } | undefined
    if (dup && dup.id !== input.id)
      throw new ApiError(`allowlist rule #${dup.id} already has these patterns (${ruleLabel(spec)})`, 'conflict')
    const id = this.changing(signer, () => {
      let id: number
      if (input.id !== undefined) {
        this.get(input.id)
        this.db
          .prepare('UPDATE approval_rules SET agent_pattern = ?, tool_name = ?, input_pattern = ?, note = ?, signature = ? WHERE id = ?')
          .run(spec.agent_pattern, spec.tool_name, spec.input_pattern, note, signature, input.id)
        id = input.id
      } else {
        const info = this.db
          .prepare(
            'INSERT INTO approval_rules (agent_pattern, tool_name, input_pattern, note, created_at, signature) VALUES (?, ?, ?, ?, ?, ?)'
          )
          .run(spec.agent_pattern, spec.tool_name, spec.input_pattern, note, new Date().toISOString(), signature)
        id = Number(info.lastInsertRowid)
      }
      // this version is the rule's live one (an older version of it answers nothing from now on)
      this.ledger.append({ op: 'rule.add', rule: { id, key: signed.key, sig: signed.sig } }, signer)
      return id
    })
    return this.get(id)
  }

  /** Deletes a rule: a revocation in the trust ledger, so its row put back answers nothing. */
  delete(id: number): void {
    if (!this.keys.signer) throw new ApiError('this process cannot sign allowlist changes', 'conflict')
    const signer = this.keys.signer()
    this.changing(signer, () => {
      const row = this.db.prepare(`SELECT ${this.columns()} FROM approval_rules WHERE id = ?`).get(id) as RuleRow | undefined
      if (!row) throw new ApiError(`no allowlist rule #${id}`, 'not_found')
      this.db.prepare('DELETE FROM approval_rules WHERE id = ?').run(id)
      const sig = parseSignature(row.signature)
      this.ledger.append({ op: 'rule.revoke', rule: { id, key: sig?.key ?? '', sig: sig?.sig ?? '' } }, signer)
    })
  }

  /** Appends a change of trust that is not a rule's (a key revoked or rotated), as a rule change is made. */
  appendTrust(body: Extract<LedgerBody, { op: 'key.revoke' | 'key.rotate' }>, signer: DecisionSigner, also?: () => void): void {
    this.changing(signer, () => {
      also?.()
      this.ledger.append(body, signer)
    })
  }

  /**
   * Runs a change of the rules or the trust: the mirror is deleted in the change's own transaction
   * (under the write lock, so no hook reads a mirror the change made stale), the ledger's two
   * copies brought together and the rules from before it adopted, then the change; the mirror is
   * written again after.
   */
  private changing<T>(signer: DecisionSigner, change: () => T): T {
    const file = this.dbFile()
    try {
      return this.db
        .transaction(() => {
          if (file) dropMirror(file)
          this.prepareLedger(signer)
          return change()
        })
        .immediate()
    } catch (err) {
      if (err instanceof ApiError) throw err
      throw new ApiError(`the allowlist was not changed: ${(err as Error).message}`, 'conflict')
    } finally {
      // after a refused change too: its transaction rolled back, but the mirror was already gone
      this.refreshMirror()
    }
  }

  /**
   * Inside a write transaction: brings the ledger's copies together and, when the ledger has no
   * record yet, adopts the rules signed before it (each with a valid signature of a trusted key).
   */
  private prepareLedger(signer: DecisionSigner): void {
    const trust = this.keys.trust()
    this.ledger.sync(trust.keys)
    if (!this.ledger.empty()) return
    const rows = this.db.prepare(`SELECT ${this.columns()} FROM approval_rules ORDER BY id`).all() as RuleRow[]
    const adopted = rows.flatMap((r) => {
      const sig = parseSignature(r.signature)
      return sig && trust.checkRule(r, sig).ok ? [{ id: r.id, key: sig.key, sig: sig.sig }] : []
    })
    if (adopted.length) this.ledger.append({ op: 'rules.adopt', rules: adopted }, signer)
  }

  /** The state DB's file, or null for a database that has none (in memory). */
  private dbFile(): string | null {
    const name = this.db.name
    return name && name !== ':memory:' && !this.db.memory ? name : null
  }

  /**
   * At the start of a process that holds the operator's key (the app, `muster serve`): the
   * ledger's copies brought together, the rules from before it adopted, and the mirror written
   * again unless the one beside the DB is usable. Never throws.
   */
  attestMirror(): void {
    const file = this.dbFile()
    if (!file || !this.keys.signer) return
    try {
      const signer = this.keys.signer()
      this.db.transaction(() => this.prepareLedger(signer)).immediate()
      if (!readMirrorFile(file)) this.refreshMirror()
    } catch {
      // the mirror stays as it is: the hook reads the DB
    }
  }

  /**
   * Writes the mirror from the committed rules and the ledger, attested with the operator's key,
   * holding the write lock meanwhile (`BEGIN IMMEDIATE`: no change lands between the read and the
   * rename). Without the key (the hook; a key kept where this process cannot unlock it) there is
   * no mirror: the hook reads the DB. A mirror that cannot be written is simply absent.
   */
  refreshMirror(): void {
    const file = this.dbFile()
    if (!file) return
    let signer: DecisionSigner | undefined
    try {
      signer = this.keys.signer?.()
    } catch {
      // a key that cannot be read now: no mirror
    }
    try {
      this.db
        .transaction(() => {
          if (!signer) return dropMirror(file)
          const rows = this.db
            .prepare(
              `SELECT id, agent_pattern, tool_name, input_pattern${this.columns().endsWith('signature') ? ', signature' : ''} FROM approval_rules ORDER BY id`
            )
            .all() as (RuleSpec & { id: number; signature?: string | null })[]
          const ledger = this.checkLedger()
          writeMirror(
            file,
            rows.map((r) => ({ ...r, signature: parseSignature(r.signature) })),
            signer,
            ledger.ok ? ledger.state : null
          )
        })
        .immediate()
    } catch {
      try {
        dropMirror(file)
      } catch {
        // neither written nor deletable: the DB's identity check still voids it when the DB changes
      }
    }
  }

  /** The first rule (oldest) that counts and allows the call, or null. */
  firstMatch(call: CallToMatch): SignedRule | null {
    return firstAllowing(
      this.list().filter((r) => r.trusted),
      call
    )
  }

  /** Why the first counting rule that reads as if it allowed the call does not (a wildcard over a dangerous argument), or null. */
  declinedBy(call: CallToMatch): string | null {
    const trusted = this.list().filter((r) => r.trusted)
    for (const r of trusted) {
      const asks = isAskRule(r) ? askRuleHolds(r, call) : null
      if (asks) return `rule #${r.id} keeps it for you: ${asks}`
    }
    for (const r of trusted) {
      const why = ruleDeclined(r, call)
      if (why) return `rule #${r.id} ${ruleLabel(r)} does not allow it: ${why}`
    }
    return null
  }

  /** Counts one answer given by a rule (when `spec` is given: only while the rule still has these patterns). */
  recordHit(id: number, at = new Date(), spec?: RuleSpec): void {
    if (!spec) {
      this.db.prepare('UPDATE approval_rules SET hits = hits + 1, last_hit_at = ? WHERE id = ?').run(at.toISOString(), id)
      return
    }
    this.db
      .prepare(
        'UPDATE approval_rules SET hits = hits + 1, last_hit_at = ? WHERE id = ? AND agent_pattern = ? AND tool_name = ? AND input_pattern = ?'
      )
      .run(at.toISOString(), id, spec.agent_pattern, spec.tool_name, spec.input_pattern)
  }
}
