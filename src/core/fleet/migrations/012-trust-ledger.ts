/**
 * Migration 12: the trust ledger (`core/approvals/trust-ledger.ts`), one signed record per change of
 * what the hooks trust (a rule saved or deleted, a key untrusted or rotated), numbered from 1. Its
 * copy beside the DB is `trust-ledger.json`. Rules from before are adopted into it by the first
 * process holding the operator's key.
 */
export const sql = `
CREATE TABLE IF NOT EXISTS trust_ledger (
  seq INTEGER PRIMARY KEY,
  record TEXT NOT NULL
);
`
