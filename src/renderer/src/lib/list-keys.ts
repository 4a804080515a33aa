/**
 * Keyboard navigation of a list, once for every screen: j or Down moves one down, k or Up one up,
 * Home and End jump to the ends (the lists that select rows: patches, notes, directives,
 * timeline, approvals).
 */

/** How far a key moves the selection: 1 (j, Down), -1 (k, Up), 0 for any other key. */
export function listStep(key: string): -1 | 0 | 1 {
  return key === 'ArrowDown' || key === 'j' ? 1 : key === 'ArrowUp' || key === 'k' ? -1 : 0
}

/** The row `key` selects in a list of `length` rows with `index` selected (-1: none); null when the key is not a list key. */
export function listKeyTarget(key: string, index: number, length: number): number | null {
  if (length === 0) return null
  const step = listStep(key)
  const next = step ? Math.max(index, -1) + step : key === 'Home' ? 0 : key === 'End' ? length - 1 : null
  return next === null ? null : Math.min(length - 1, Math.max(0, next))
}
