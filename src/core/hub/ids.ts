/**
 * Identity and wire formats of the MemPalace hub (spec/hub-logstream.md section 3): event and
 * artifact ids, `created_at` timestamps, the hybrid logical clock, and the canonical metadata
 * JSON text (byte-identical to Python's `json.dumps(obj, ensure_ascii=False, sort_keys=True)`).
 */
import { randomBytes } from 'node:crypto'
import { pyDumps } from '../../shared/py-json'

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
/**
 * How far ahead of the local clock another replica's stamp may be and still be followed. A stamp
 * further ahead (a replica whose clock ran 2 h fast) is not absorbed: following it would stamp every
 * later local write in that replica's future, after writes other replicas make meanwhile. Upstream's
 * hybrid logical clock (`mempalace/hlc.py`, RFC 004) bounds `observe` the same way (60 s).
 */
export const HLC_MAX_FUTURE_DRIFT_MS = 60_000

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

/**
 * The smallest HLC string above every stamp at most `HLC_MAX_FUTURE_DRIFT_MS` ahead of `nowMs`:
 * stamps are fixed-width, so `hlc < bound` as text is `ms <= nowMs + drift` (see `nextHlc`'s callers).
 */
export function hlcDriftBound(nowMs: number): string {
  return String(Math.max(0, Math.floor(nowMs)) + HLC_MAX_FUTURE_DRIFT_MS + 1).padStart(13, '0')
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

export { compareCodePoints, PyFloat, pyFloat, pyFloatRepr, PyJsonError } from '../../shared/py-json'

/**
 * Serialises `value` exactly like Python `json.dumps(value, ensure_ascii=False, sort_keys=True)`
 * (see `shared/py-json.ts`): separators `", "` and `": "`, keys sorted by code point at every
 * level, Python's string escapes; integral numbers as ints, others as Python's float repr,
 * `pyFloat(n)` as a float (`1.0`), bigint as an int. Refused, as the hub file must stay JSON:
 * NaN and Infinity, strings holding lone UTF-16 surrogates (not storable as UTF-8), anything
 * that is not null, a boolean, number, bigint, string, array, plain object, `Map` or `PyFloat`.
 */
export function pyJsonDumps(value: unknown): string {
  return pyDumps(value, { sortKeys: true, allowNan: false })
}
