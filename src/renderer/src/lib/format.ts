/** Small formatting helpers shared by the screens. */

export { relativeTime, shortAge } from '../../../shared/relative-time'

/** Human byte size: 812 B, 21.4 KB, 1.2 MB. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`
  return `${(n / 1024 / 1024).toFixed(1)} MB`
}

/** Singular/plural: plural(3, 'role') → "3 roles". */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`
}

/** The message of anything thrown. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}
