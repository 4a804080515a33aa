/**
 * The approvals allowlist in Muster's state DB (table `approval_rules`, migration 7): rules edited
 * in the UI and read by `muster approve-hook` before it asks anyone. A rule that answers a hook
 * counts a hit. Matching itself is the shared, pure `allow-rules.ts`. Every rule is signed by
 * the operator's key when saved; a rule without a valid signature from a trusted key (a row an
 * agent inserted, or a rule from before signing) answers no hook. Every change of the rules also
 * replaces their mirror beside the DB (`allowlist-mirror.ts`), which the hook reads first. No zod
 * here: the hook process loads this module.
 */
import { ApiError } from '../../shared/api-error'
import { ruleLabel, ruleMatches, ruleProblem, type CallToMatch, type RuleSpec } from '../../shared/approvals/allow-rules'
import type { AllowRule } from '../../shared/contract/approvals-types'
import type { Db } from '../sqlite'
import { readSignature, rulePayload, type DecisionSigner, type DecisionTrust, type SignatureRef } from './decision-trust'
import { dropMirror, readMirror, readMirrorFile, writeMirror } from './allowlist-mirror'

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

  constructor(
    private readonly db: Db,
    private readonly keys: RuleKeys
  ) {}

  /** True when the DB has the rules table (a state DB from before migration 7 has none). */
  static available(db: Db): boolean {
    return !!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'approval_rules'").get()
  }

  /** The columns read: with `signature` once migration 8 added it. */
  private columns(): string {
    this.signed ??= (this.db.prepare('PRAGMA table_info(approval_rules)').all() as { name: string }[]).some((c) => c.name === 'signature')
    return this.signed ? `${COLUMNS}, signature` : COLUMNS
  }

  private toRule(r: RuleRow, trust: DecisionTrust): SignedRule {
    const { signature: text, ...rest } = r
    const signature = parseSignature(text)
    const v = trust.checkRule(r, signature)
    return { ...rest, label: ruleLabel(r), trusted: v.ok, untrusted_reason: v.ok ? null : v.why, signature }
  }

  /** Every rule, oldest first (the order they are tried in), with whether a trusted operator signed it. */
  list(): SignedRule[] {
    const trust = this.keys.trust()
    return (this.db.prepare(`SELECT ${this.columns()} FROM approval_rules ORDER BY id`).all() as RuleRow[]).map((r) =>
      this.toRule(r, trust)
    )
  }

  /** One rule, or not_found. */
  get(id: number): SignedRule {
    const row = this.db.prepare(`SELECT ${this.columns()} FROM approval_rules WHERE id = ?`).get(id) as RuleRow | undefined
    if (!row) throw new ApiError(`no allowlist rule #${id}`, 'not_found')
    return this.toRule(row, this.keys.trust())
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
    const signature = JSON.stringify(this.keys.signer().sign(rulePayload(spec)))
    const dup = this.db
      .prepare('SELECT id FROM approval_rules WHERE agent_pattern = ? AND tool_name = ? AND input_pattern = ?')
      .get(spec.agent_pattern, spec.tool_name, spec.input_pattern) as { id: number } | undefined
    if (dup && dup.id !== input.id)
      throw new ApiError(`allowlist rule #${dup.id} already has these patterns (${ruleLabel(spec)})`, 'conflict')
    const id = this.changing(() => {
      if (input.id !== undefined) {
        this.get(input.id)
        this.db
          .prepare('UPDATE approval_rules SET agent_pattern = ?, tool_name = ?, input_pattern = ?, note = ?, signature = ? WHERE id = ?')
          .run(spec.agent_pattern, spec.tool_name, spec.input_pattern, note, signature, input.id)
        return input.id
      }
      const info = this.db
        .prepare(
          'INSERT INTO approval_rules (agent_pattern, tool_name, input_pattern, note, created_at, signature) VALUES (?, ?, ?, ?, ?, ?)'
        )
        .run(spec.agent_pattern, spec.tool_name, spec.input_pattern, note, new Date().toISOString(), signature)
      return Number(info.lastInsertRowid)
    })
    return this.get(id)
  }

  /** Deletes a rule. */
  delete(id: number): void {
    this.changing(() => {
      if (this.db.prepare('DELETE FROM approval_rules WHERE id = ?').run(id).changes === 0)
        throw new ApiError(`no allowlist rule #${id}`, 'not_found')
    })
  }

  /**
   * Runs a change of the rules: the mirror is deleted in the change's own transaction (under the
   * write lock, so no hook reads a mirror the change made stale), then written again.
   */
  private changing<T>(change: () => T): T {
    const file = this.dbFile()
    try {
      return this.db
        .transaction(() => {
          if (file) dropMirror(file)
          return change()
        })
        .immediate()
    } finally {
      // after a refused change too: its transaction rolled back, but the mirror was already gone
      this.refreshMirror()
    }
  }

  /** The state DB's file, or null for a database that has none (in memory). */
  private dbFile(): string | null {
    const name = this.db.name
    return name && name !== ':memory:' && !this.db.memory ? name : null
  }

  /** True when the mirror beside the DB can be read and belongs to this DB (a DB in memory has none to read). */
  mirrorUsable(): boolean {
    const file = this.dbFile()
    return !file || readMirror(file) !== null
  }

  /**
   * Writes the mirror again when this process could attest it (it holds the operator's key) and
   * the one beside the DB is not attested (a hook wrote it) or not usable: the hook then checks
   * one signature instead of one per rule. Never throws.
   */
  attestMirror(): void {
    const file = this.dbFile()
    if (!file || !this.keys.signer) return
    try {
      if (!readMirrorFile(file)?.attested) this.refreshMirror()
    } catch {
      // the mirror stays as it is: the hook checks each rule
    }
  }

  /**
   * Writes the mirror from the committed rules, holding the write lock meanwhile (`BEGIN
   * IMMEDIATE`: no change lands between the read and the rename). A mirror that cannot be
   * written is simply absent (the hook reads the DB).
   */
  refreshMirror(): void {
    const file = this.dbFile()
    if (!file) return
    let signer: DecisionSigner | undefined
    try {
      signer = this.keys.signer?.()
    } catch {
      // a key that cannot be read now: the mirror is written without attestation
    }
    try {
      this.db
        .transaction(() => {
          const rows = this.db
            .prepare(
              `SELECT id, agent_pattern, tool_name, input_pattern${this.columns().endsWith('signature') ? ', signature' : ''} FROM approval_rules ORDER BY id`
            )
            .all() as (RuleSpec & { id: number; signature?: string | null })[]
          // attested when this process holds the operator's key (the hook's store does not)
          writeMirror(
            file,
            rows.map((r) => ({ ...r, signature: parseSignature(r.signature) })),
            signer
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

  /** The first rule (oldest) signed by a trusted operator that allows the call, or null. */
  firstMatch(call: CallToMatch): SignedRule | null {
    return this.list().find((r) => r.trusted && ruleMatches(r, call)) ?? null
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
