/**
 * `--metadata JSON` as upstream's `_parse_metadata_arg` reads it (cli/cmd_coord.py): Python's
 * `json.loads` (ints past 2^53 and `1.0` kept exactly, Python's error text) and a JSON object or
 * nothing (`null`, a list or a number is refused).
 */
import { pyToObject } from '../shared/py-json'
import { PyJsonDecodeError, pyLoads } from '../shared/py-json-parse'

/** The parsed object, or null when the flag was not given. */
export function metadataArg(raw: string | undefined): Record<string, unknown> | null {
  if (raw === undefined) return null
  let value
  try {
    value = pyLoads(raw)
  } catch (err) {
    if (err instanceof PyJsonDecodeError) throw new Error(`--metadata is not valid JSON: ${err.message}`)
    throw err
  }
  if (!(value instanceof Map)) throw new Error('--metadata must be a JSON object')
  return pyToObject(value) as Record<string, unknown>
}
