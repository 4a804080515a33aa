/**
 * JSON exactly as MemPalace's Python writes and reads it: `json.dumps` (separators, key order,
 * escaping, float repr, `indent`, `ensure_ascii`) and, in `py-json-parse.ts`, `json.loads`.
 * Hand-written rather than a lossless-JSON package on purpose: what matters is Python's exact
 * behaviour (its float repr, its error messages, `NaN`), which no JS library reproduces.
 *
 * Values (`PyJson`): null, booleans, strings; numbers are Python ints when integral, floats
 * otherwise (`-0` is the int 0); `bigint` is an int beyond 2^53; `PyFloat` is a float with an integral value (`1.0`,
 * `-0.0`, `1e16`); arrays; objects are plain objects or `Map`s (a `Map` keeps its key order, which
 * a JS object cannot for integer-like keys). `pyLoads` returns exactly this shape, so
 * `pyDumps(pyLoads(text), opts)` equals Python's `json.dumps(json.loads(text), **opts)`.
 */

/** A Python float whose value is integral (so it is written `1.0`, not `1`). */
export class PyFloat {
  constructor(readonly value: number) {}
}

/** Marks a number as a Python float (`pyFloat(1)` is written `1.0`). */
export function pyFloat(value: number): PyFloat {
  return new PyFloat(value)
}

/** A JSON value with Python's int/float distinction and ordered objects. */
export type PyJson = null | boolean | string | number | bigint | PyFloat | PyJson[] | Map<string, PyJson> | { [key: string]: PyJson }

/** Thrown for values Python's `json.dumps` would refuse or that the chosen options exclude. */
export class PyJsonError extends Error {}

/** Options of `pyDumps` (Python's names). */
export interface PyDumpOptions {
  /** Sort object keys by code point (`sort_keys=True`). */
  sortKeys?: boolean
  /** Pretty-print with this many spaces (`indent=N`: item separator `,`); compact `, `/`: ` without. */
  indent?: number
  /** Escape every character outside printable ASCII as `\uXXXX` (Python's default). */
  ensureAscii?: boolean
  /** Write NaN/Infinity as Python does (`allow_nan=True`, its default); false rejects them. */
  allowNan?: boolean
  /**
   * Lone UTF-16 surrogates: reject them (storage, the default: not UTF-8), write them as they are
   * (`raw`, what Python's str holds), or escape them as `\udXXX` (`escape`: display output).
   */
  loneSurrogates?: 'reject' | 'raw' | 'escape'
}

/** Serialises like Python's `json.dumps(value, ...)` with the given options. */
export function pyDumps(value: unknown, opts: PyDumpOptions = {}): string {
  return dump(value, opts, 0)
}

/** Compares strings by Unicode code point (Python's str order), not by UTF-16 unit. */
export function compareCodePoints(a: string, b: string): number {
  const ia = a[Symbol.iterator]()
  const ib = b[Symbol.iterator]()
  for (;;) {
    const x = ia.next()
    const y = ib.next()
    if (x.done || y.done) return x.done && y.done ? 0 : x.done ? -1 : 1
    const cx = x.value.codePointAt(0)!
    const cy = y.value.codePointAt(0)!
    if (cx !== cy) return cx < cy ? -1 : 1
  }
}

/**
 * Python's `repr(float)`: the shortest round-tripping digits (same as JS), positional notation
 * for decimal exponents -4..15 (always with a fractional part, `1.0`), otherwise scientific with
 * a signed two-digit-minimum exponent (`1e-05`, `1.5e+16`); `nan`/`inf` as JSON writes them.
 */
export function pyFloatRepr(n: number): string {
  if (Number.isNaN(n)) return 'NaN'
  if (n === Infinity) return 'Infinity'
  if (n === -Infinity) return '-Infinity'
  if (Object.is(n, -0)) return '-0.0'
  if (n === 0) return '0.0'
  const [mant, expText] = n.toExponential().split('e') as [string, string]
  const exp = Number(expText)
  const digits = mant.replace('-', '').replace('.', '')
  const sign = mant.startsWith('-') ? '-' : ''
  if (exp >= -4 && exp < 16) {
    if (exp < 0) return sign + '0.' + '0'.repeat(-exp - 1) + digits
    if (digits.length > exp + 1) return sign + digits.slice(0, exp + 1) + '.' + digits.slice(exp + 1)
    return sign + digits + '0'.repeat(exp + 1 - digits.length) + '.0'
  }
  const m = digits.length > 1 ? digits[0] + '.' + digits.slice(1) : digits
  return `${sign}${m}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`
}

const ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' }
const LONE_SURROGATE_RE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/
// eslint-disable-next-line no-control-regex
const CONTROL_RE = /[\x00-\x1f"\\]/g
// eslint-disable-next-line no-control-regex
const CONTROL_OR_LONE_RE = /[\x00-\x1f"\\]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g
const u4 = (code: number): string => '\\u' + code.toString(16).padStart(4, '0')

/** A JSON string literal as Python writes it. */
export function pyStr(s: string, opts: PyDumpOptions = {}): string {
  const lone = LONE_SURROGATE_RE.test(s)
  if (lone && !opts.ensureAscii && (opts.loneSurrogates ?? 'reject') === 'reject') throw new PyJsonError('string contains a lone surrogate')
  // ensure_ascii: everything outside ' '..'~' is escaped (DEL too, astral characters as their two
  // surrogates); otherwise only controls, '"', '\\' and (when allowed at all) lone surrogates.
  const re = opts.ensureAscii ? /[^ -~]|["\\]/g : lone && opts.loneSurrogates === 'escape' ? CONTROL_OR_LONE_RE : CONTROL_RE
  return '"' + s.replace(re, (ch) => ESCAPES[ch] ?? u4(ch.charCodeAt(0))) + '"'
}

function dump(value: unknown, opts: PyDumpOptions, depth: number): string {
  if (depth > 200) throw new PyJsonError('nesting too deep')
  if (value === null) return 'null'
  if (value === true) return 'true'
  if (value === false) return 'false'
  if (typeof value === 'string') return pyStr(value, opts)
  if (typeof value === 'bigint') return value.toString()
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value).toString() : float(value, opts)
  if (value instanceof PyFloat) return float(value.value, opts)
  const nl = opts.indent === undefined ? '' : '\n' + ' '.repeat(opts.indent * (depth + 1))
  const close = opts.indent === undefined ? '' : '\n' + ' '.repeat(opts.indent * depth)
  const sep = opts.indent === undefined ? ', ' : ','
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]'
    return '[' + nl + value.map((v) => dump(v === undefined ? null : v, opts, depth + 1)).join(sep + nl) + close + ']'
  }
  let entries: [string, unknown][]
  if (value instanceof Map) entries = [...(value as Map<string, unknown>).entries()]
  else if (typeof value === 'object') {
    const proto = Object.getPrototypeOf(value)
    if (proto !== Object.prototype && proto !== null) {
      throw new PyJsonError(`Object of type ${(value as object).constructor?.name ?? 'unknown'} is not JSON serializable`)
    }
    entries = Object.entries(value as Record<string, unknown>)
  } else throw new PyJsonError(`Object of type ${typeof value} is not JSON serializable`)
  entries = entries.filter(([, v]) => v !== undefined)
  if (opts.sortKeys) entries.sort(([a], [b]) => compareCodePoints(a, b))
  if (entries.length === 0) return '{}'
  return '{' + nl + entries.map(([k, v]) => `${pyStr(k, opts)}: ${dump(v, opts, depth + 1)}`).join(sep + nl) + close + '}'
}

function float(n: number, opts: PyDumpOptions): string {
  if (!Number.isFinite(n) && opts.allowNan === false)
    throw new PyJsonError(`Out of range float values are not JSON compliant: ${pyFloatRepr(n)}`)
  return pyFloatRepr(n)
}

/**
 * The value as `JSON.parse` would have given it, for the contract (JSON over HTTP and IPC):
 * bigint and `PyFloat` become plain numbers (lossy), `Map`s plain objects.
 */
export function pyToPlain(v: PyJson): unknown {
  if (typeof v === 'bigint') return Number(v)
  if (v instanceof PyFloat) return v.value
  if (Array.isArray(v)) return v.map(pyToPlain)
  if (v === null || typeof v !== 'object') return v
  const out: Record<string, unknown> = {}
  const entries = v instanceof Map ? [...v.entries()] : Object.entries(v)
  for (const [k, x] of entries) Object.defineProperty(out, k, { value: pyToPlain(x), enumerable: true, writable: true, configurable: true })
  return out
}

/**
 * True when `pyToPlain(v)` still says exactly what `v` says: no int beyond 2^53, no float
 * written as an integer (`1.0`), no NaN/Infinity, and object keys in the order a JS object
 * enumerates them (integer-like keys come first in numeric order there).
 */
export function plainIsExact(v: PyJson): boolean {
  if (typeof v === 'bigint' || v instanceof PyFloat) return false
  if (typeof v === 'number') return Number.isFinite(v)
  if (Array.isArray(v)) return v.every(plainIsExact)
  if (v === null || typeof v !== 'object') return true
  const entries = v instanceof Map ? [...v.entries()] : Object.entries(v)
  const jsOrder = Object.keys(Object.fromEntries(entries.map(([k]) => [k, 0])))
  return entries.every(([k, x], i) => jsOrder[i] === k && plainIsExact(x))
}

/**
 * A parsed value as plain objects that `pyDumps` writes back to the same Python value: `Map`s
 * become null-prototype objects (key order is lost, which `sort_keys` writing ignores); ints past
 * 2^53 stay `bigint` and integral floats `PyFloat`, so metadata given as text is stored exactly.
 */
export function pyToObject(v: PyJson): PyJson {
  if (Array.isArray(v)) return v.map(pyToObject)
  if (!(v instanceof Map)) return v
  const out = Object.create(null) as Record<string, PyJson>
  for (const [k, x] of v) out[k] = pyToObject(x)
  return out
}
