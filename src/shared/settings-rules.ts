/**
 * The rules of the operator's settings, without zod: the contract's `SettingsSchema` is built from
 * them, and `readSettings` applies them to stored values on paths that must not load zod and the
 * contract (`muster patch verify`, the hook). settings-rules.test.ts keeps the two in agreement.
 */
import { AGENT_ID_MAX, AGENT_ID_RE } from './agent-id'

/** The themes, in the order the settings screen offers them. */
export const THEMES = ['system', 'light', 'dark'] as const
/** The operator's agent id: an agent id like any other (shared/agent-id.ts). */
export const OPERATOR_ID_RE = AGENT_ID_RE
/** Longest operator id. */
export const OPERATOR_ID_MAX = AGENT_ID_MAX
/** A role the operator answers for: `GM` or `PROJECT/GM`. */
export const OPERATOR_ROLE_RE = /^[^\s/]+(\/[^\s/]+)?$/
/** Longest role, and most roles. */
export const OPERATOR_ROLE_MAX = 200
export const OPERATOR_ROLES_MAX = 100

/**
 * `value` as valid settings (roles trimmed, as the schema does), or null when any rule fails. The
 * shape is the contract's `Settings`, spelled here so the contract can import these rules.
 */
export function readSettings(value: unknown): { theme: (typeof THEMES)[number]; operatorId: string; operatorRoles: string[] } | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null
  const v = value as Record<string, unknown>
  if (!(THEMES as readonly unknown[]).includes(v.theme)) return null
  const id = v.operatorId
  if (typeof id !== 'string' || id.length > OPERATOR_ID_MAX || !OPERATOR_ID_RE.test(id)) return null
  if (!Array.isArray(v.operatorRoles) || v.operatorRoles.length > OPERATOR_ROLES_MAX) return null
  const roles: string[] = []
  for (const r of v.operatorRoles) {
    if (typeof r !== 'string') return null
    const t = r.trim()
    if (t.length < 1 || t.length > OPERATOR_ROLE_MAX || !OPERATOR_ROLE_RE.test(t)) return null
    roles.push(t)
  }
  return { theme: v.theme as (typeof THEMES)[number], operatorId: id, operatorRoles: roles }
}
