/**
 * Helpers shared by the hub's writers (events, artifacts): a per-connection statement cache,
 * tolerant metadata parsing, and the instant a write is stamped with.
 */
import type { Statement } from 'better-sqlite3'
import type { Db } from '../../sqlite'
import { plainIsExact, pyToPlain, type PyJson } from '../../../shared/py-json'
import { pyLoads } from '../../../shared/py-json-parse'
import { HubValidationError } from '../values/validate'

const statements = new WeakMap<Db, Map<string, Statement>>()

/** A prepared statement, cached per connection (appends run hot in imports and benchmarks). */
export function stmt(db: Db, sql: string): Statement {
  let cache = statements.get(db)
  if (!cache) statements.set(db, (cache = new Map()))
  let s = cache.get(sql)
  if (!s) cache.set(sql, (s = db.prepare(sql)))
  return s
}

/** Stored metadata as the contract carries it: plain values, plus the stored text when they are lossy. */
export interface ReadMetadata {
  metadata: Record<string, unknown>
  /** The stored JSON text, present only when `metadata` cannot say it exactly (see `plainIsExact`). */
  metadata_json?: string
}

// Text that JSON.parse reads exactly: no 16-digit run (ints past 2^53), no float token (digit then
// '.'/'e'), no integer-like key, no NaN/Infinity. Anything else takes Python's exact reading.
const MAYBE_LOSSY_RE = /\d{16}|\d[.eE]|"\d|NaN|Infinity/

/**
 * Parses stored metadata the way MemPalace reads it (Python's `json.loads`); invalid JSON (or a
 * non-object) reads as `{}`. Numbers JSON cannot carry exactly (ints past 2^53, floats written
 * `1.0`) and integer-like keys out of JS order keep the stored text beside the plain value.
 */
export function readMetadata(text: string | null): ReadMetadata {
  if (text === null || text === '{}') return { metadata: {} }
  if (!MAYBE_LOSSY_RE.test(text)) {
    try {
      const value: unknown = JSON.parse(text)
      return { metadata: value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {} }
    } catch {
      return { metadata: {} }
    }
  }
  let tree: PyJson
  try {
    tree = pyLoads(text)
  } catch {
    return { metadata: {} }
  }
  if (!(tree instanceof Map)) return { metadata: {} }
  const metadata = pyToPlain(tree) as Record<string, unknown>
  return plainIsExact(tree) ? { metadata } : { metadata, metadata_json: text }
}

/** Parses stored metadata's plain value (see `readMetadata`). */
export function parseMetadata(text: string | null): Record<string, unknown> {
  return readMetadata(text).metadata
}

/** The instant of a write: now, or a valid explicit Date. */
export function validInstant(at: Date | undefined): Date {
  if (at === undefined) return new Date()
  if (!(at instanceof Date) || Number.isNaN(at.getTime())) throw new HubValidationError('at must be a valid Date')
  return at
}
