/**
 * JSON from a hub server read exactly: Python's `json.loads` (`shared/py-json-parse`), not
 * `JSON.parse`, which rounds ints past 2^53 (12345678901234567890 -> ...168) and turns `1.0` into
 * `1` and `-0.0` into `0`. The value becomes plain objects as the contract carries them; every
 * `metadata` object that plain numbers cannot say exactly gets its exact text beside it as
 * `metadata_json` (the local hub's rule, `store/write-support.ts`), which the mirror stores and
 * every printer shows from.
 */
import { plainIsExact, pyDumps, pyToObject, pyToPlain, type PyJson } from '../../../shared/py-json'
import { pyLoads } from '../../../shared/py-json-parse'

/** Parses a hub server's JSON text exactly (throws a `PyJsonDecodeError` on invalid JSON). */
export function parseHubJson(text: string): unknown {
  return exactPlain(pyLoads(text))
}

/** A parsed tree as plain values; lossy `metadata` objects keep their exact text in `metadata_json`. */
export function exactPlain(v: PyJson): unknown {
  if (Array.isArray(v)) return v.map(exactPlain)
  if (!(v instanceof Map)) return pyToPlain(v)
  const out: Record<string, unknown> = {}
  const put = (k: string, x: unknown) => Object.defineProperty(out, k, { value: x, enumerable: true, writable: true, configurable: true })
  for (const [k, x] of v) put(k, exactPlain(x))
  const meta = v.get('metadata')
  if (meta instanceof Map && !v.has('metadata_json') && !plainIsExact(meta))
    put('metadata_json', pyDumps(pyToObject(meta), { sortKeys: true }))
  return out
}
