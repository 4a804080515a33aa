/**
 * The memory search index in Muster's state DB (migration 2): an FTS5 table with the trigram
 * tokenizer. Sync is incremental and stat-based: a file is re-indexed only when its stamp
 * (src/shared/file-stamp.ts) changed, and rows of vanished files are dropped. Queries of 3+ characters per term use
 * FTS MATCH ranked by bm25; shorter terms (trigram cannot match them) fall back to LIKE.
 */
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import type { MemoryHit, Project } from '../../shared/api'
import { fileStamp, sameStamp, type FileStamp } from '../../shared/file-stamp'
import type { Db } from '../sqlite'
import { ymd } from './edits'
import { chunksOf, DAILY_LOG } from './memory-files'

/** Search scope: everything, the last 3 days of daily logs, or MEMORIES.md. */
export type MemoryScope = 'all' | 'recent' | 'longterm'

/** Memory files of a project (relative paths): MEMORIES.md and `memory/*.md` (not `archive/`). */
async function memoryFiles(projectPath: string): Promise<string[]> {
  const out: string[] = []
  try {
    await fs.access(join(projectPath, 'MEMORIES.md'))
    out.push('MEMORIES.md')
  } catch {
    /* no long-term memory */
  }
  try {
    for (const e of await fs.readdir(join(projectPath, 'memory'), { withFileTypes: true }))
      if (e.isFile() && e.name.endsWith('.md')) out.push(`memory/${e.name}`)
  } catch {
    /* no memory folder */
  }
  return out
}

interface KnownFile {
  file: string
  dev: number
  ino: number
  size: number
  mtime_ms: number
  ctime_ms: number
  first_rowid: number | null
  last_rowid: number | null
}

/** The stamp a row was indexed under. */
function rowStamp(r: KnownFile): FileStamp {
  return [r.dev, r.ino, r.size, r.mtime_ms, r.ctime_ms]
}

const KNOWN = 'SELECT file, dev, ino, size, mtime_ms, ctime_ms, first_rowid, last_rowid FROM memory_files WHERE project = ?'

/**
 * Brings the index of one project up to date; returns how many files were re-indexed. Files are
 * stat'ed and read first, then every change is applied in one transaction (one commit, not one
 * per file), deleting a changed file's old rows by their rowid range.
 */
export async function syncMemoryIndex(db: Db, project: Project): Promise<number> {
  const files = await memoryFiles(project.path)
  const rows = db.prepare(KNOWN).all(project.name) as KnownFile[]
  const known = new Map(rows.map((r) => [r.file, r]))
  const updates: { file: string; text: string; stamp: FileStamp }[] = []
  for (const file of files) {
    const old = known.get(file)
    known.delete(file)
    try {
      const stamp = fileStamp(await fs.stat(join(project.path, file)))
      if (old && sameStamp(rowStamp(old), stamp)) continue
      updates.push({ file, text: await fs.readFile(join(project.path, file), 'utf8'), stamp })
    } catch {
      /* vanished between listing and reading: the next sync drops it */
    }
  }
  if (updates.length === 0 && known.size === 0) return 0
  const delRange = db.prepare('DELETE FROM memory_fts WHERE rowid BETWEEN ? AND ?')
  const delScan = db.prepare('DELETE FROM memory_fts WHERE project = ? AND file = ?')
  const delFile = db.prepare('DELETE FROM memory_files WHERE project = ? AND file = ?')
  const ins = db.prepare('INSERT INTO memory_fts (text, project, file, line, date, kind) VALUES (?, ?, ?, ?, ?, ?)')
  const put = db.prepare(
    `INSERT INTO memory_files (project, file, dev, ino, size, mtime_ms, ctime_ms, first_rowid, last_rowid) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(project, file) DO UPDATE SET dev = excluded.dev, ino = excluded.ino, size = excluded.size,
       mtime_ms = excluded.mtime_ms, ctime_ms = excluded.ctime_ms, first_rowid = excluded.first_rowid, last_rowid = excluded.last_rowid`
  )
  const dropRows = (f: KnownFile): void => {
    if (f.first_rowid !== null && f.last_rowid !== null) delRange.run(f.first_rowid, f.last_rowid)
    else delScan.run(project.name, f.file)
  }
  const current = db.prepare(`${KNOWN} AND file = ?`)
  let applied = 0
  // Decisions are re-checked inside the write transaction: another sync (a concurrent call, or the
  // CLI and the app sharing the state DB) may have indexed the same change since the reads above.
  db.transaction(() => {
    for (const u of updates) {
      const now = current.get(project.name, u.file) as KnownFile | undefined
      if (now && sameStamp(rowStamp(now), u.stamp)) continue
      if (now) dropRows(now)
      const date = DAILY_LOG.exec(u.file.slice('memory/'.length))?.[1] ?? null
      let first: number | null = null
      let last: number | null = null
      for (const c of chunksOf(u.file, u.text)) {
        const id = Number(ins.run(c.text, project.name, u.file, c.line, date, c.kind).lastInsertRowid)
        first ??= id
        last = id
      }
      put.run(project.name, u.file, ...u.stamp, first, last)
      applied++
    }
    for (const gone of known.keys()) {
      const now = current.get(project.name, gone) as KnownFile | undefined
      if (!now) continue
      dropRows(now)
      delFile.run(project.name, gone)
      applied++
    }
  })()
  return applied
}

/** Searches the index; `projects` limits the projects, `now` defines "recent" (last 3 days). */
export function searchMemory(
  db: Db,
  opts: { projects: string[]; query: string; scope: MemoryScope; limit: number; now: Date }
): { hits: MemoryHit[]; mode: 'fts' | 'like' } {
  const terms = opts.query.trim().split(/\s+/).filter(Boolean)
  const where: string[] = [`project IN (${opts.projects.map(() => '?').join(',') || "''"})`]
  const params: unknown[] = [...opts.projects]
  if (opts.scope === 'longterm') where.push("file = 'MEMORIES.md'")
  if (opts.scope === 'recent') {
    const from = new Date(opts.now)
    from.setDate(from.getDate() - 2)
    where.push('date IS NOT NULL AND date >= ? AND date <= ?')
    params.push(ymd(from), ymd(opts.now))
  }
  const fts = terms.every((t) => [...t].length >= 3)
  let sql: string
  if (fts) {
    const match = terms.map((t) => `"${t.replace(/"/g, '""')}"`).join(' ')
    sql = `SELECT project, file, line, date, kind, text, bm25(memory_fts) AS score FROM memory_fts WHERE memory_fts MATCH ? AND ${where.join(' AND ')} ORDER BY score LIMIT ?`
    params.unshift(match)
  } else {
    for (const t of terms) {
      where.push("text LIKE ? ESCAPE '\\'")
      params.push(`%${t.replace(/[\\%_]/g, (c) => '\\' + c)}%`)
    }
    sql = `SELECT project, file, line, date, kind, text, 0 AS score FROM memory_fts WHERE ${where.join(' AND ')} ORDER BY date DESC, file, line LIMIT ?`
  }
  params.push(opts.limit)
  const rows = db.prepare(sql).all(...params) as {
    project: string
    file: string
    line: number
    date: string | null
    kind: string | null
    text: string
    score: number
  }[]
  return { hits: rows.map((r) => ({ ...r, line: Number(r.line) })), mode: fts ? 'fts' : 'like' }
}
