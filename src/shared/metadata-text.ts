/**
 * Event (and artifact) metadata as text for people: exactly as stored when the plain value is
 * lossy (`metadata_json`: ints past 2^53, floats written `1.0`), pretty-printed as Python's
 * `json.dumps(..., indent=2, ensure_ascii=False)` prints it (MemPalace's `--json` output).
 */
import { pyDumps } from './py-json'
import { pyLoads } from './py-json-parse'

/** Something carrying metadata the hub way. */
export interface WithMetadata {
  metadata: Record<string, unknown>
  metadata_json?: string
}

/** The metadata pretty-printed with `indent` spaces, numbers exactly as stored. */
export function metadataText(e: WithMetadata, indent = 2): string {
  const value = e.metadata_json !== undefined ? pyLoads(e.metadata_json) : e.metadata
  return pyDumps(value, { indent, loneSurrogates: 'escape' })
}
