/**
 * Migration 8: allowlist rules are signed by the operator's key (`{"key", "sig"}` as JSON). Rules
 * from before have none: they are shown as unsigned and answer no hook until saved again.
 */
export const sql = `
ALTER TABLE approval_rules ADD COLUMN signature TEXT;
`
