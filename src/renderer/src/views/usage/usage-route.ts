/** The Usage screen's address: `#/usage?budget=ID` marks a budget (the needs-you item of a crossed one links there). */

/** The budget an address names, or null. */
export function budgetFromHash(hash: string): number | null {
  const raw = new URLSearchParams(hash.split('?')[1] ?? '').get('budget')
  const n = Number(raw)
  return raw && Number.isInteger(n) && n > 0 ? n : null
}
