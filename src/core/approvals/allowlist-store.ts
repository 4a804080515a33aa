/**
 * The approvals allowlist in Muster's state DB (table `approval_rules`, migration 7): rules edited
 * in the UI and read by `muster approve-hook` before it asks anyone. A rule that answers a hook
 * counts a hit. Matching itself is the shared, pure `allow-rules.ts`. No zod here: the hook
 * process loads this module.
 */
import { ApiError } from '../../shared/api-error'
import { ruleLabel, ruleMatches, ruleProblem, type CallToMatch, type RuleSpec } from '../../shared/approvals/allow-rules'
import type { AllowRule } from '../../shared/contract/approvals-types'
import type { Db } from '../sqlite'

interface RuleRow {
  id: number
  agent_pattern: string
  tool_name: string
  input_pattern: string
  note: string | null
  created_at: string
  hits: number
  last_hit_at: string | null
}

const COLUMNS = 'id, agent_pattern, tool_name, input_pattern, note, created_at, hits, last_hit_at'

const toRule = (r: RuleRow): AllowRule => ({ ...r, label: ruleLabel(r) })

/** What a rule is saved from: its patterns, a note, and `id` to change an existing rule. */
export interface RuleInput extends RuleSpec {
  id?: number
  note?: string
}

/** Allowlist rules of one state DB. */
export class AllowlistStore {
  constructor(private readonly db: Db) {}

  /** True when the DB has the rules table (a state DB from before migration 7 has none). */
  static available(db: Db): boolean {
    return !!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'approval_rules'").get()
  }

  /** Every rule, oldest first (the order they are tried in). */
  list(): AllowRule[] {
    return (this.db.prepare(`SELECT ${COLUMNS} FROM approval_rules ORDER BY id`).all() as RuleRow[]).map(toRule)
  }

  /** One rule, or not_found. */
  get(id: number): AllowRule {
    const row = this.db.prepare(`SELECT ${COLUMNS} FROM approval_rules WHERE id = ?`).get(id) as RuleRow | undefined
    if (!row) throw new ApiError(`no allowlist rule #${id}`, 'not_found')
    return toRule(row)
  }

  /** Adds a rule or changes one; refuses an unusable rule or a duplicate of another rule. */
  save(input: RuleInput): AllowRule {
    const spec: RuleSpec = {
      agent_pattern: input.agent_pattern.trim(),
      tool_name: input.tool_name.trim(),
      input_pattern: input.input_pattern.trim()
    }
    const problem = ruleProblem(spec)
    if (problem) throw new ApiError(`invalid allowlist rule: ${problem}`, 'invalid_input')
    const note = input.note?.trim() || null
    const dup = this.db
      .prepare('SELECT id FROM approval_rules WHERE agent_pattern = ? AND tool_name = ? AND input_pattern = ?')
      .get(spec.agent_pattern, spec.tool_name, spec.input_pattern) as { id: number } | undefined
    if (dup && dup.id !== input.id)
      throw new ApiError(`allowlist rule #${dup.id} already has these patterns (${ruleLabel(spec)})`, 'conflict')
    if (input.id !== undefined) {
      this.get(input.id)
      this.db
        .prepare('UPDATE approval_rules SET agent_pattern = ?, tool_name = ?, input_pattern = ?, note = ? WHERE id = ?')
        .run(spec.agent_pattern, spec.tool_name, spec.input_pattern, note, input.id)
      return this.get(input.id)
    }
    const info = this.db
      .prepare('INSERT INTO approval_rules (agent_pattern, tool_name, input_pattern, note, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(spec.agent_pattern, spec.tool_name, spec.input_pattern, note, new Date().toISOString())
    return this.get(Number(info.lastInsertRowid))
  }

  /** Deletes a rule. */
  delete(id: number): void {
    if (this.db.prepare('DELETE FROM approval_rules WHERE id = ?').run(id).changes === 0)
      throw new ApiError(`no allowlist rule #${id}`, 'not_found')
  }

  /** The first rule (oldest) that allows the call, or null. */
  firstMatch(call: CallToMatch): AllowRule | null {
    return this.list().find((r) => ruleMatches(r, call)) ?? null
  }

  /** Counts one answer given by a rule. */
  recordHit(id: number, at = new Date()): void {
    this.db.prepare('UPDATE approval_rules SET hits = hits + 1, last_hit_at = ? WHERE id = ?').run(at.toISOString(), id)
  }
}
