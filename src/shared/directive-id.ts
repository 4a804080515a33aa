/**
 * The bound of a directive id, in one place for the parser, the contract, the MCP tools and the
 * numbering. Spec section 4: `S` + 2-4 digits + an optional suffix; upstream MUSE files use `v3`,
 * `v4`, `+` and `+S035` as suffixes. So the digits end where the suffix begins (the suffix does not
 * start with a digit) and the suffix has at most 11 characters: an id has at most 16. A longer one
 * (`S` + 400 digits) is not an id: no directive form matches it, the numbering of the next ids
 * ignores it, and lint names its line.
 */

/** Most characters a directive id has. */
export const MAX_DIRECTIVE_ID_CHARS = 16

/** Regex source of one directive id (no anchors, no flags). */
export const DIRECTIVE_ID_SOURCE = String.raw`S\d{2,4}(?![0-9])[A-Za-z0-9+]{0,11}`

/** A whole string that is a directive id. */
export const DIRECTIVE_ID_RE = new RegExp(`^${DIRECTIVE_ID_SOURCE}$`)

/** Largest directive number: four digits. */
export const MAX_DIRECTIVE_NUMBER = 9999

/**
 * An S-id-like word of any length (`S` + 2 or more digits, with whatever suffix follows): what the
 * unmatched-line check looks for, so an over-long id is named rather than silently skipped.
 */
export const ANY_ID_RE = /(?<![A-Za-z0-9])S\d{2,}[A-Za-z0-9+]*/

/** The over-long S-id in `text` (the first word like an id that is not within the bound), or null. */
export function overlongId(text: string): string | null {
  const re = new RegExp(ANY_ID_RE.source, 'g')
  for (let m = re.exec(text); m; m = re.exec(text)) if (!DIRECTIVE_ID_RE.test(m[0])) return m[0]
  return null
}
