/** Filter values as every hub implementation reads them (pure: no storage). */
import type { OneOrMany } from './hub-port'

/** Values of a OneOrMany filter, empty strings dropped, duplicates removed; undefined when absent. */
export function valuesOf(v: OneOrMany | undefined): string[] | undefined {
  if (v === undefined) return undefined
  const list = (typeof v === 'string' ? [v] : [...v]).filter((s) => s !== '')
  return list.length ? [...new Set(list)] : undefined
}
