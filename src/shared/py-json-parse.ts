/**
 * Python's `json.loads` (CPython 3.11 `json.decoder` + `json.scanner`), exact: ints stay exact
 * (`bigint` past 2^53), floats keep their float-ness (`1.0` is a `PyFloat`), objects keep their
 * key order (a `Map`; a repeated key keeps its first position and last value, like `dict`),
 * `NaN`/`Infinity`/`-Infinity` are accepted, and every error carries Python's message and
 * position (`Expecting value: line 1 column 1 (char 0)`), counted in code points as Python does.
 */
import { PyFloat, type PyJson } from './py-json'

/** A parse error with Python's `JSONDecodeError` text (or `int()`'s digit-limit message). */
export class PyJsonDecodeError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'PyJsonDecodeError'
  }
}

/** Python's `sys.get_int_max_str_digits()` default: longer int literals are refused. */
export const PY_INT_MAX_STR_DIGITS = 4300

const WS = ' \t\n\r'
const NUMBER_RE = /(-?(?:0|[1-9]\d*))(\.\d+)?([eE][-+]?\d+)?/y
const WS_RE = /[ \t\n\r]*/y
// A chunk of string content up to the next quote, backslash or control character.
const CHUNK_RE = /([^"\\\x00-\x1f]*)(["\\\x00-\x1f])/y // eslint-disable-line no-control-regex
const BACKSLASH: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' }

/** Parses JSON text exactly as Python's `json.loads(text)` does. */
export function pyLoads(text: string): PyJson {
  if (text.startsWith('\ufeff')) throw fail(text, 'Unexpected UTF-8 BOM (decode using utf-8-sig)', 0)
  const [value, end] = scanOnce(text, skipWs(text, 0))
  const after = skipWs(text, end)
  if (after !== text.length) throw fail(text, 'Extra data', after)
  return value
}

/** `JSONDecodeError(msg, doc, pos)`'s text; `pos` is a UTF-16 index, reported in code points. */
function fail(doc: string, msg: string, pos: number): PyJsonDecodeError {
  const before = doc.slice(0, pos)
  const cp = [...before].length
  const nl = before.lastIndexOf('\n')
  const line = before.split('\n').length
  const col = nl < 0 ? cp + 1 : cp - [...before.slice(0, nl)].length
  return new PyJsonDecodeError(`${msg}: line ${line} column ${col} (char ${cp})`)
}

class StopIteration {
  constructor(readonly at: number) {}
}

function skipWs(s: string, at: number): number {
  WS_RE.lastIndex = Math.min(at, s.length)
  WS_RE.exec(s)
  return WS_RE.lastIndex
}

function scanOnce(s: string, idx: number): [PyJson, number] {
  try {
    return scan(s, idx)
  } catch (err) {
    if (err instanceof StopIteration) throw fail(s, 'Expecting value', err.at)
    throw err
  }
}

function scan(s: string, idx: number): [PyJson, number] {
  if (idx >= s.length) throw new StopIteration(idx)
  const c = s[idx]
  if (c === '"') return scanString(s, idx + 1)
  if (c === '{') return scanObject(s, idx + 1)
  if (c === '[') return scanArray(s, idx + 1)
  if (c === 'n' && s.startsWith('null', idx)) return [null, idx + 4]
  if (c === 't' && s.startsWith('true', idx)) return [true, idx + 4]
  if (c === 'f' && s.startsWith('false', idx)) return [false, idx + 5]
  NUMBER_RE.lastIndex = idx
  const m = NUMBER_RE.exec(s)
  if (m) return [number(m[1]!, m[2], m[3]), NUMBER_RE.lastIndex]
  if (c === 'N' && s.startsWith('NaN', idx)) return [new PyFloat(NaN), idx + 3]
  if (c === 'I' && s.startsWith('Infinity', idx)) return [new PyFloat(Infinity), idx + 8]
  if (c === '-' && s.startsWith('-Infinity', idx)) return [new PyFloat(-Infinity), idx + 9]
  throw new StopIteration(idx)
}

/** `int(text)` or `float(text)`: exact ints, floats flagged when their value is integral. */
function number(int: string, frac: string | undefined, exp: string | undefined): PyJson {
  if (frac || exp) {
    const v = Number(int + (frac ?? '') + (exp ?? ''))
    return Number.isInteger(v) || !Number.isFinite(v) ? new PyFloat(v) : v
  }
  const digits = int.replace('-', '').length
  if (digits > PY_INT_MAX_STR_DIGITS) {
    throw new PyJsonDecodeError(
      `Exceeds the limit (${PY_INT_MAX_STR_DIGITS} digits) for integer string conversion: value has ${digits} digits; use sys.set_int_max_str_digits() to increase the limit`
    )
  }
  const n = Number(int)
  return Number.isSafeInteger(n) ? (n === 0 ? 0 : n) : BigInt(int)
}

function scanString(s: string, end: number): [string, number] {
  const begin = end - 1
  let out = ''
  for (;;) {
    CHUNK_RE.lastIndex = end
    const m = CHUNK_RE.exec(s)
    if (!m) throw fail(s, 'Unterminated string starting at', begin)
    end = CHUNK_RE.lastIndex
    out += m[1]
    const term = m[2]!
    if (term === '"') return [out, end]
    if (term !== '\\') throw fail(s, 'Invalid control character at', end - 1)
    if (end >= s.length) throw fail(s, 'Unterminated string starting at', begin)
    const esc = s[end]!
    if (esc !== 'u') {
      const ch = BACKSLASH[esc]
      if (ch === undefined) throw fail(s, 'Invalid \\escape', end - 1)
      out += ch
      end += 1
      continue
    }
    let uni = hex4(s, end)
    end += 5
    if (uni >= 0xd800 && uni <= 0xdbff && s.startsWith('\\u', end)) {
      const low = hex4(s, end + 1)
      if (low >= 0xdc00 && low <= 0xdfff) {
        uni = 0x10000 + (((uni - 0xd800) << 10) | (low - 0xdc00))
        end += 6
      }
    }
    out += String.fromCodePoint(uni)
  }
}

/** The four hex digits after `s[pos] === 'u'` (Python refuses `x`/`X` as the second one). */
function hex4(s: string, pos: number): number {
  const esc = s.slice(pos + 1, pos + 5)
  if (esc.length === 4 && /^[0-9a-fA-F]{4}$/.test(esc)) return parseInt(esc, 16)
  throw fail(s, 'Invalid \\uXXXX escape', pos)
}

function scanObject(s: string, end: number): [Map<string, PyJson>, number] {
  const pairs = new Map<string, PyJson>()
  let next = s.slice(end, end + 1)
  if (next !== '"') {
    if (WS.includes(next)) {
      end = skipWs(s, end)
      next = s.slice(end, end + 1)
    }
    if (next === '}') return [pairs, end + 1]
    if (next !== '"') throw fail(s, 'Expecting property name enclosed in double quotes', end)
  }
  end += 1
  for (;;) {
    const [key, afterKey] = scanString(s, end)
    end = afterKey
    if (s[end] !== ':') {
      end = skipWs(s, end)
      if (s[end] !== ':') throw fail(s, "Expecting ':' delimiter", end)
    }
    end = skipWs(s, end + 1)
    const [value, afterValue] = scanOnce(s, end)
    end = afterValue
    pairs.set(key, value)
    end = skipWs(s, end)
    const sep = s.slice(end, end + 1)
    end += 1
    if (sep === '}') return [pairs, end]
    if (sep !== ',') throw fail(s, "Expecting ',' delimiter", end - 1)
    end = skipWs(s, end)
    const quote = s.slice(end, end + 1)
    end += 1
    if (quote !== '"') throw fail(s, 'Expecting property name enclosed in double quotes', end - 1)
  }
}

function scanArray(s: string, end: number): [PyJson[], number] {
  const values: PyJson[] = []
  end = skipWs(s, end)
  if (s.slice(end, end + 1) === ']') return [values, end + 1]
  for (;;) {
    const [value, afterValue] = scanOnce(s, end)
    values.push(value)
    end = skipWs(s, afterValue)
    const sep = s.slice(end, end + 1)
    end += 1
    if (sep === ']') return [values, end]
    if (sep !== ',') throw fail(s, "Expecting ',' delimiter", end - 1)
    end = skipWs(s, end)
  }
}
