/**
 * Helpers shared by the hub's writers (events, artifacts): a per-connection statement cache,
 * tolerant metadata parsing, and the instant a write is stamped with.
 */
import type { Statement } from 'better-sqlite3'
import type { Db } from '../sqlite'
import { HubValidationError } from './validate'

const statements = new WeakMap<Db, Map<string, Statement>>()

/** A prepared statement, cached per connection (appends run hot in imports and benchmarks). */
export function stmt(db: Db, sql: string): Statement {
  let cache = statements.get(db)
  if (!cache) statements.set(db, (cache = new Map()))
  let s = cache.get(sql)
  if (!s) cache.set(sql, (s = db.prepare(sql)))
  return s
}

/** Parses stored metadata; invalid JSON (or a non-object) reads as `{}`. */
export function parseMetadata(text: string | null): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text ?? '{}')
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

/** The instant of a write: now, or a valid explicit Date. */
export function validInstant(at: Date | undefined): Date {
  if (at === undefined) return new Date()
  if (!(at instanceof Date) || Number.isNaN(at.getTime())) throw new HubValidationError('at must be a valid Date')
  return at
}
