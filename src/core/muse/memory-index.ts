/**
 * The memory search index in Muster's state DB (migration 2): an FTS5 table with the trigram
 * tokenizer. Sync is incremental and stat-based: a file is re-indexed only when its size or
 * mtime changed, and rows of vanished files are dropped. Queries of 3+ characters per term use
 * FTS MATCH ranked by bm25; shorter terms (trigram cannot match them) fall back to LIKE.
 */
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import type { MemoryHit, Project } from '../../shared/api'
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
    for (const e of await fs.readdir(join(projectPath, 'memory'), { withFileTypes: true })) if (e.isFile() && e.name.endsWith('.md')) out.push(`memory/${e.name}`)
  } catch {
    /* no memory folder */
  }
  return out
}

/** Brings the index of one project up to date; returns how many files were re-indexed. */
export async function syncMemoryIndex(db: Db, project: Project): Promise<number> {
  const files = await memoryFiles(project.path)
  const known = new Map((db.prepare('SELECT file, mtime_ms, size FROM memory_files WHERE project = ?').all(project.name) as { file: string; mtime_ms: number; size: number }[]).map((r) => [r.file, r]))
  const del = db.prepare('DELETE FROM memory_fts WHERE project = ? AND file = ?')
  const delFile = db.prepare('DELETE FROM memory_files WHERE project = ? AND file = ?')
  const ins = db.prepare('INSERT INTO memory_fts (text, project, file, line, date, kind) VALUES (?, ?, ?, ?, ?, ?)')
  const put = db.prepare('INSERT INTO memory_files (project, file, mtime_ms, size) VALUES (?, ?, ?, ?) ON CONFLICT(project, file) DO UPDATE SET mtime_ms = excluded.mtime_ms, size = excluded.size')
  let changed = 0
  for (const file of files) {
    let st
    let text
    try {
      st = await fs.stat(join(project.path, file))
      const k = known.get(file)
      known.delete(file)
      if (k && k.mtime_ms === st.mtimeMs && k.size === st.size) continue
      text = await fs.readFile(join(project.path, file), 'utf8')
    } catch {
      continue
    }
    const date = DAILY_LOG.exec(file.slice('memory/'.length))?.[1] ?? null
    const chunks = chunksOf(file, text)
    db.transaction(() => {
      del.run(project.name, file)
      for (const c of chunks) ins.run(c.text, project.name, file, c.line, date, c.kind)
      put.run(project.name, file, st.mtimeMs, st.size)
    })()
    changed++
  }
  for (const file of known.keys()) {
    db.transaction(() => {
      del.run(project.name, file)
      delFile.run(project.name, file)
    })()
    changed++
  }
  return changed
}

/** Searches the index; `projects` limits the projects, `now` defines "recent" (last 3 days). */
export function searchMemory(db: Db, opts: { projects: string[]; query: string; scope: MemoryScope; limit: number; now: Date }): { hits: MemoryHit[]; mode: 'fts' | 'like' } {
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
  const rows = db.prepare(sql).all(...params) as { project: string; file: string; line: number; date: string | null; kind: string | null; text: string; score: number }[]
  return { hits: rows.map((r) => ({ ...r, line: Number(r.line) })), mode: fts ? 'fts' : 'like' }
}
