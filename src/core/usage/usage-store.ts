/**
 * Usage in Muster's state DB (migration 11): the record files read (`usage_sources`, with where
 * each read ended) and their tokens per model and UTC hour (`usage_hours`). A read is committed
 * exactly once: its tokens and its new offset land in one transaction that first checks nobody
 * else moved the offset since the read began (the app and a hook's worker may read one file at
 * once: one commit wins, the other's read is dropped and done again from the new offset).
 * No zod: the hook's worker loads this.
 */
import { addTokens, zeroTokens, type TokenCounts } from '../../shared/contract/tokens'
import type { Db } from '../sqlite'
import type { FileRead, ReadFrom } from './line-reader'

/** One record file as stored. */
export interface SourceRow {
  id: number
  path: string
  harness: string
  /** The harness folder it lies in (checked again before every read). */
  root: string
  session_id: string | null
  agent: string | null
  project: string | null
  cwd: string | null
  file_id: string
  read_to: number
  state_json: string
  dropping: number
  size: number
  mtime_ms: number
  skipped: number
  error: string | null
  read_at: string | null
}

/** What registers a source: its harness and folder, and what a hook knows of it. */
export interface SourceInput {
  harness: string
  root: string
  session_id?: string | null
  agent?: string | null
  project?: string | null
  cwd?: string | null
}

/** Tokens of one source, model and hour, with the source's particulars. */
export interface HourRow extends TokenCounts {
  source_id: number
  harness: string
  session_id: string | null
  agent: string | null
  project: string | null
  cwd: string | null
  model: string
  hour: string
}

const SOURCE_COLUMNS =
  'id, path, harness, root, session_id, agent, project, cwd, file_id, read_to, state_json, dropping, size, mtime_ms, skipped, error, read_at'

/** Usage tables of one state DB. */
export class UsageStore {
  constructor(readonly db: Db) {}

  /** True when the DB has the usage tables (a state DB from before migration 11 has none). */
  static available(db: Db): boolean {
    return !!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'usage_sources'").get()
  }

  /** The source at `path`, or null. */
  source(path: string): SourceRow | null {
    return (this.db.prepare(`SELECT ${SOURCE_COLUMNS} FROM usage_sources WHERE path = ?`).get(path) as SourceRow | undefined) ?? null
  }

  /** Every source, oldest first. */
  sources(): SourceRow[] {
    return this.db.prepare(`SELECT ${SOURCE_COLUMNS} FROM usage_sources ORDER BY id`).all() as SourceRow[]
  }

  /** The folders sources were registered in (the harnesses' folders hooks reported, besides this user's). */
  roots(): { harness: string; root: string }[] {
    return this.db.prepare('SELECT DISTINCT harness, root FROM usage_sources ORDER BY harness, root').all() as {
      harness: string
      root: string
    }[]
  }

  /**
   * Registers a source (or returns it); what a hook knows (agent, project, session, cwd) fills in
   * or replaces what was unknown, never a known value with nothing.
   */
  register(path: string, s: SourceInput): SourceRow {
    this.db
      .prepare(
        `INSERT INTO usage_sources (path, harness, root, session_id, agent, project, cwd) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(path) DO UPDATE SET
           session_id = COALESCE(excluded.session_id, session_id),
           agent = COALESCE(excluded.agent, agent),
           project = COALESCE(excluded.project, project),
           cwd = COALESCE(cwd, excluded.cwd)`
      )
      .run(path, s.harness, s.root, s.session_id ?? null, s.agent ?? null, s.project ?? null, s.cwd ?? null)
    return this.source(path)!
  }

  /** Where the last read of `row` ended, for the reader (null: from the start). */
  static from(row: SourceRow): ReadFrom | null {
    if (!row.file_id) return null
    let state: unknown = null
    try {
      state = JSON.parse(row.state_json) as unknown
    } catch {
      return null
    }
    return { file_id: row.file_id, offset: row.read_to, state, dropping: row.dropping === 1 }
  }

  /**
   * Commits a read of `row` (as it was when the read began): its tokens and its new offset, in one
   * transaction, only if the offset is still where the read began; false when another reader
   * committed first (nothing is changed then).
   */
  commit(row: SourceRow, read: FileRead, at = new Date()): boolean {
    const add = this.db.prepare(
      `INSERT INTO usage_hours (source_id, model, hour, input, output, cache_write, cache_read) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(source_id, model, hour) DO UPDATE SET
         input = input + excluded.input, output = output + excluded.output,
         cache_write = cache_write + excluded.cache_write, cache_read = cache_read + excluded.cache_read`
    )
    return this.db
      .transaction((): boolean => {
        const now = this.db.prepare('SELECT file_id, read_to FROM usage_sources WHERE id = ?').get(row.id) as
          { file_id: string; read_to: number } | undefined
        if (!now || now.file_id !== row.file_id || now.read_to !== row.read_to) return false
        if (read.restarted) this.db.prepare('DELETE FROM usage_hours WHERE source_id = ?').run(row.id)
        for (const b of read.buckets)
          add.run(row.id, b.model, b.hour, b.tokens.input, b.tokens.output, b.tokens.cache_write, b.tokens.cache_read)
        this.db
          .prepare(
            `UPDATE usage_sources SET file_id = ?, read_to = ?, state_json = ?, dropping = ?, size = ?, mtime_ms = ?,
               skipped = ? , error = NULL, read_at = ?,
               session_id = COALESCE(session_id, ?), cwd = COALESCE(cwd, ?)
             WHERE id = ?`
          )
          .run(
            read.file_id,
            read.offset,
            JSON.stringify(read.state),
            read.dropping ? 1 : 0,
            read.size,
            read.mtime_ms,
            (read.restarted ? 0 : row.skipped) + read.skipped,
            at.toISOString(),
            read.facts.session_id ?? null,
            read.facts.cwd ?? null,
            row.id
          )
        return true
      })
      .immediate()
  }

  /** Notes why a source could not be read (shown with its session); cleared by the next good read. */
  fail(id: number, why: string): void {
    this.db.prepare('UPDATE usage_sources SET error = ? WHERE id = ?').run(why.slice(0, 500), id)
  }

  /** Forgets a source and its tokens (its file is gone from the harness's folders). */
  forget(id: number): void {
    this.db.prepare('DELETE FROM usage_sources WHERE id = ?').run(id)
  }

  /** Tokens per source, model and hour from `fromHour` (inclusive, `YYYY-MM-DDTHH`; null: all) to `toHour` (exclusive). */
  hours(fromHour: string | null, toHour: string | null = null): HourRow[] {
    const where: string[] = []
    const args: string[] = []
    if (fromHour) {
      where.push('h.hour >= ?')
      args.push(fromHour)
    }
    if (toHour) {
      where.push('h.hour < ?')
      args.push(toHour)
    }
    return this.db
      .prepare(
        `SELECT h.source_id, s.harness, s.session_id, s.agent, s.project, s.cwd, h.model, h.hour,
                h.input, h.output, h.cache_write, h.cache_read
         FROM usage_hours h JOIN usage_sources s ON s.id = h.source_id
         ${where.length ? `WHERE ${where.join(' AND ')}` : ''}`
      )
      .all(...args) as HourRow[]
  }

  /**
   * Tokens per source and model from `fromHour` on (null: all), of every source or only those of
   * `sessions`, with the source's particulars (what budgets count).
   */
  bySource(fromHour: string | null, sessions?: readonly string[]): (TokenCounts & Omit<HourRow, 'hour' | keyof TokenCounts>)[] {
    const where: string[] = []
    const args: string[] = []
    if (fromHour) {
      where.push('h.hour >= ?')
      args.push(fromHour)
    }
    if (sessions) {
      if (!sessions.length) return []
      where.push(`s.session_id IN (${sessions.map(() => '?').join(', ')})`)
      args.push(...sessions)
    }
    return this.db
      .prepare(
        `SELECT h.source_id, s.harness, s.session_id, s.agent, s.project, s.cwd, h.model,
                sum(h.input) AS input, sum(h.output) AS output, sum(h.cache_write) AS cache_write, sum(h.cache_read) AS cache_read
         FROM usage_hours h JOIN usage_sources s ON s.id = h.source_id
         ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
         GROUP BY h.source_id, h.model`
      )
      .all(...args) as (TokenCounts & Omit<HourRow, 'hour' | keyof TokenCounts>)[]
  }

  /** A session's tokens per source, model and hour. */
  sessionHours(sessionId: string): HourRow[] {
    return this.db
      .prepare(
        `SELECT h.source_id, s.harness, s.session_id, s.agent, s.project, s.cwd, h.model, h.hour,
                h.input, h.output, h.cache_write, h.cache_read
         FROM usage_hours h JOIN usage_sources s ON s.id = h.source_id WHERE s.session_id = ?`
      )
      .all(sessionId) as HourRow[]
  }

  /** A session's tokens per model (all its sources, every hour). */
  sessionModels(sessionId: string): Map<string, TokenCounts> {
    const rows = this.db
      .prepare(
        `SELECT h.model, sum(h.input) AS input, sum(h.output) AS output, sum(h.cache_write) AS cache_write, sum(h.cache_read) AS cache_read
         FROM usage_hours h JOIN usage_sources s ON s.id = h.source_id WHERE s.session_id = ? GROUP BY h.model`
      )
      .all(sessionId) as (TokenCounts & { model: string })[]
    const out = new Map<string, TokenCounts>()
    for (const r of rows) out.set(r.model, addTokens(zeroTokens(), r))
    return out
  }
}
