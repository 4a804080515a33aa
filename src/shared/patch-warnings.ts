/**
 * The advisory warnings for patch content, upstream's full sentences (logstream.py
 * `Logstream._patch_content_warnings`, em dash included). Defined once, here in the contract, so
 * the local writer, the artifact view (local or remote hub), the patches work and any renderer
 * text use the same words. The content is stored unchanged either way.
 */

/** Patch content that does not end with `\n`. */
export const PATCH_WARNING_NO_TRAILING_NEWLINE =
  'patch content does not end with a trailing newline; git apply will reject the final hunk as corrupt — ' +
  'store the diff byte-exactly including its trailing newline'

/** Patch content containing `\r` anywhere. */
export const PATCH_WARNING_CRLF =
  'patch content contains carriage returns (CRLF line endings); git apply often rejects CRLF diffs — generate the diff with LF endings'

/** The warnings for an artifact, in upstream's order; only `kind=patch` content is checked. */
export function patchWarnings(kind: string, content: string): string[] {
  if (kind !== 'patch') return []
  const warnings: string[] = []
  if (!content.endsWith('\n')) warnings.push(PATCH_WARNING_NO_TRAILING_NEWLINE)
  if (content.includes('\r')) warnings.push(PATCH_WARNING_CRLF)
  return warnings
}
