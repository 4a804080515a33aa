/**
 * Identity and wire formats of the MemPalace hub (spec/hub-logstream.md section 3): event and
 * artifact ids, `created_at` timestamps, the hybrid logical clock, and the canonical metadata
 * JSON text (byte-identical to Python's `json.dumps(obj, ensure_ascii=False, sort_keys=True)`).
 */
import { randomBytes } from 'node:crypto'

/** `evt_20260315T234600_0123456789ab` / `art_...`: readable UTC stamp + 12 random hex. */
export const EVENT_ID_RE = /^evt_\d{8}T\d{6}_[0-9a-f]{12}$/
/** Artifact ids have the same shape as event ids with the `art_` prefix. */
export const ARTIFACT_ID_RE = /^art_\d{8}T\d{6}_[0-9a-f]{12}$/
/** `created_at`: UTC, second precision. */
export const CREATED_AT_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/
/** `<13-digit ms>-<6 hex counter>-<replica_id>` (upstream `hlc.py`). */
export const HLC_RE = /^(\d{13})-([0-9a-f]{6})-(.+)$/
/** Replica ids: upstream mints 12 hex, newer hubs and Muster 32 hex. */
export const REPLICA_ID_RE = /^rep_(?:[0-9a-f]{12}|[0-9a-f]{32})$/

/** The largest HLC counter; past it the clock steps its millisecond instead of wrapping. */
export const HLC_MAX_COUNTER = 0xffffff

const pad = (n: number, width = 2): string => String(n).padStart(width, '0')

/** `YYYYMMDDTHHMMSS` in UTC, the stamp inside ids. */
export function idStamp(at: Date): string {
  return (
    `${pad(at.getUTCFullYear(), 4)}${pad(at.getUTCMonth() + 1)}${pad(at.getUTCDate())}` +
    `T${pad(at.getUTCHours())}${pad(at.getUTCMinutes())}${pad(at.getUTCSeconds())}`
  )
}

/** A new event or artifact id: `<prefix>_<UTC stamp>_<12 lowercase hex>`. Unique, not ordered. */
export function newId(prefix: 'evt' | 'art', at: Date = new Date()): string {
  return `${prefix}_${idStamp(at)}_${randomBytes(6).toString('hex')}`
}

/** `YYYY-MM-DDTHH:MM:SSZ` (UTC, second precision), the hub's `created_at`. */
export function formatCreatedAt(at: Date = new Date()): string {
  return at.toISOString().slice(0, 19) + 'Z'
}

/** A fresh replica id, `rep_<32 lowercase hex>`. */
export function newReplicaId(): string {
  return `rep_${randomBytes(16).toString('hex')}`
}

/** The parts of an HLC string. */
export interface Hlc {
  ms: number
  counter: number
  replicaId: string
}

/** Parses an HLC string; null when it does not have the upstream shape. */
export function parseHlc(hlc: string): Hlc | null {
  const m = HLC_RE.exec(hlc)
  if (!m) return null
  return { ms: Number(m[1]), counter: parseInt(m[2]!, 16), replicaId: m[3]! }
}

/** Renders an HLC: 13-digit zero-padded ms, 6-digit lowercase hex counter, replica id. */
export function renderHlc(ms: number, counter: number, replicaId: string): string {
  return `${String(ms).padStart(13, '0')}-${counter.toString(16).padStart(6, '0')}-${replicaId}`
}

/**
 * The next local HLC after `last` (the newest stamp in the file, or null): physical time if it
 * advanced past `last`, else the same ms with the counter bumped. Because ms and counter are
 * fixed-width, the result is strictly greater than `last` as a string, whatever the replica ids.
 */
export function nextHlc(last: string | null, nowMs: number, replicaId: string): string {
  const prev = last ? parseHlc(last) : null
  const ms = Math.max(0, Math.floor(nowMs))
  if (!prev || ms > prev.ms) return renderHlc(ms, 0, replicaId)
  if (prev.counter < HLC_MAX_COUNTER) return renderHlc(prev.ms, prev.counter + 1, replicaId)
  return renderHlc(prev.ms + 1, 0, replicaId)
}

/**
 * A JS number that must be written as a Python float (`1.0`, not `1`). JS has one number type,
 * so integral numbers are written as Python ints unless wrapped with `pyFloat`.
 */
export class PyFloat {
  constructor(readonly value: number) {}
}

/** Marks a number as a Python float for `pyJsonDumps` (so `pyFloat(1)` is written `1.0`). */
export function pyFloat(value: number): PyFloat {
  return new PyFloat(value)
}

/** Thrown for values Python's `json.dumps` would refuse or that JSON cannot carry. */
export class PyJsonError extends Error {}

/**
 * Serialises `value` exactly like Python `json.dumps(value, ensure_ascii=False, sort_keys=True)`:
 * separators `", "` and `": "`, object keys sorted by code point at every level, strings escaped
 * as Python does (`\"` `\\` `\n` `\r` `\t` `\b` `\f`, other chars below 0x20 as `\u00xx` with
 * lowercase hex, everything else - DEL, U+2028, non-ASCII, emoji - written as-is).
 *
 * Numbers (JS has no int/float split): an integral finite number is written as a Python int
 * (`1`, `-3`, `10000000000000000`; `-0` as `0`); a non-integral number as Python's float repr
 * (`0.5`, `1e-05`, `1.5e+16`); `pyFloat(n)` forces float repr (`1.0`); bigint as an int.
 * NaN and Infinity are rejected (Python would emit non-JSON tokens). Object properties whose
 * value is `undefined` are skipped (as `JSON.stringify` does); anything that is not null, a
 * boolean, number, bigint, string, array, plain object or PyFloat is rejected, as are strings
 * holding lone UTF-16 surrogates (they cannot be stored as UTF-8).
 */
export function pyJsonDumps(value: unknown): string {
  return dump(value, 0)
}

function dump(value: unknown, depth: number): string {
  if (depth > 200) throw new PyJsonError('nesting too deep')
  if (value === null) return 'null'
  if (value === true) return 'true'
  if (value === false) return 'false'
  if (typeof value === 'string') return pyStr(value)
  if (typeof value === 'bigint') return value.toString()
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new PyJsonError(`Out of range float values are not JSON compliant: ${value}`)
    return Number.isInteger(value) ? BigInt(value).toString() : pyFloatRepr(value)
  }
  if (value instanceof PyFloat) {
    if (!Number.isFinite(value.value)) throw new PyJsonError(`Out of range float values are not JSON compliant: ${value.value}`)
    return pyFloatRepr(value.value)
  }
  if (Array.isArray(value)) {
    return '[' + value.map((v) => dump(v === undefined ? null : v, depth + 1)).join(', ') + ']'
  }
  if (typeof value === 'object') {
    const proto = Object.getPrototypeOf(value)
    if (proto !== Object.prototype && proto !== null) {
      throw new PyJsonError(`Object of type ${value.constructor?.name ?? 'unknown'} is not JSON serializable`)
    }
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined)
    entries.sort(([a], [b]) => compareCodePoints(a, b))
    return '{' + entries.map(([k, v]) => `${pyStr(k)}: ${dump(v, depth + 1)}`).join(', ') + '}'
  }
  throw new PyJsonError(`Object of type ${typeof value} is not JSON serializable`)
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

const ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' }

// Lone surrogates: a high not followed by a low, or a low not preceded by a high.
const LONE_SURROGATE_RE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

function pyStr(s: string): string {
  if (LONE_SURROGATE_RE.test(s)) throw new PyJsonError('string contains a lone surrogate')
  // eslint-disable-next-line no-control-regex
  return '"' + s.replace(/[\x00-\x1f"\\]/g, (ch) => ESCAPES[ch] ?? '\\u' + ch.charCodeAt(0).toString(16).padStart(4, '0')) + '"'
}

/**
 * Python's `repr(float)`: the shortest round-tripping digits (same as JS), positional notation
 * for decimal exponents -4..15 (always with a fractional part, `1.0`), otherwise scientific with
 * a signed two-digit-minimum exponent (`1e-05`, `1.5e+16`).
 */
export function pyFloatRepr(n: number): string {
  if (Object.is(n, -0)) return '-0.0'
  if (n === 0) return '0.0'
  const [mant, expText] = n.toExponential().split('e') as [string, string]
  const exp = Number(expText)
  const neg = mant.startsWith('-')
  const digits = mant.replace('-', '').replace('.', '')
  const sign = neg ? '-' : ''
  if (exp >= -4 && exp < 16) {
    let out: string
    if (exp < 0) out = '0.' + '0'.repeat(-exp - 1) + digits
    else if (digits.length > exp + 1) out = digits.slice(0, exp + 1) + '.' + digits.slice(exp + 1)
    else out = digits + '0'.repeat(exp + 1 - digits.length) + '.0'
    return sign + out
  }
  const m = digits.length > 1 ? digits[0] + '.' + digits.slice(1) : digits
  const e = (exp < 0 ? '-' : '+') + String(Math.abs(exp)).padStart(2, '0')
  return `${sign}${m}e${e}`
}
