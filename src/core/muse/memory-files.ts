/**
 * Memory files (spec section 5): appending to today's daily log, parsing `MEMORIES.md` entries,
 * and cutting files into searchable chunks (one per entry or paragraph).
 */
import { join } from 'node:path'
import { ApiError } from '../../shared/api-error'
import { eolOf, splitLines, FenceTracker } from '../text'
import { hm, ymd } from './edits'
import { writableTarget } from './link-policy'
import { safeEdit, type SafeWriteHooks } from './safe-write'
import { makeDir } from '../make-dir'

/** `memory/YYYY-MM-DD.md` file names. */
export const DAILY_LOG = /^(\d{4}-\d{2}-\d{2})\.md$/

/** One parsed `MEMORIES.md` entry. */
export interface MemoryEntry {
  topic: string | null
  kind: 'FACT' | 'DECISION' | 'LESSON' | null
  text: string
  source: string | null
  tags: string[]
  superseded: boolean
  line: number
}

/** Parses `- **[FACT] ...** (source: ...) [PERMANENT]` entries under `## Topic` headers. */
export function parseMemories(text: string): MemoryEntry[] {
  const out: MemoryEntry[] = []
  let topic: string | null = null
  const fence = new FenceTracker()
  splitLines(text).forEach((line, i) => {
    if (fence.feed(line)) return
    const h = /^#{2,6}\s+(.*)$/.exec(line)
    if (h) return void (topic = h[1]!.trim())
    const item = /^\s*[-*]\s+(.*)$/.exec(line)
    if (!item) return
    let body = item[1]!.trim()
    const superseded = body.startsWith('~~')
    if (superseded)
      body = body
        .replace(/^~~/, '')
        .replace(/~~(.*)$/, ' $1')
        .trim()
    const k = /\*\*\[(FACT|DECISION|LESSON)\]\s*(.*?)\*\*/.exec(body)
    if (!k && !/\[(FACT|DECISION|LESSON)\]/.test(body)) return
    const kind = (k?.[1] ?? /\[(FACT|DECISION|LESSON)\]/.exec(body)![1]) as MemoryEntry['kind']
    const source = /\(source:\s*([^)]*)\)/.exec(body)?.[1]?.trim() ?? null
    const tags = [...body.matchAll(/\[(PERMANENT|EPISODIC|DECAY|TEMPORAL:[^\]]+)\]/g)].map((m) => m[1]!)
    out.push({ topic, kind, text: (k?.[2] ?? body).trim(), source, tags, superseded, line: i + 1 })
  })
  return out
}

/** A searchable piece of a memory file. */
export interface MemoryChunk {
  line: number
  text: string
  kind: string | null
}

/** MEMORIES.md: one chunk per entry; other files: one chunk per paragraph (blank-line separated). */
export function chunksOf(file: string, text: string): MemoryChunk[] {
  if (file === 'MEMORIES.md') {
    const entries = parseMemories(text)
    const lines = splitLines(text)
    return entries.map((e) => ({ line: e.line, text: lines[e.line - 1]!.trim(), kind: e.superseded ? `${e.kind}~superseded` : e.kind }))
  }
  const out: MemoryChunk[] = []
  let start = 0
  let buf: string[] = []
  const flush = () => {
    if (buf.length) out.push({ line: start, text: buf.join('\n').slice(0, 4000), kind: null })
    buf = []
  }
  splitLines(text).forEach((line, i) => {
    if (line.trim() === '' || /^#{1,2}\s/.test(line)) flush()
    if (line.trim() === '') return
    if (!buf.length) start = i + 1
    buf.push(line)
  })
  flush()
  return out
}

/**
 * Appends `## [SECTION] HH:MM` + text to `memory/<today>.md`, creating it with `# <today>`. The edit
 * is idempotent within the call (`safeEdit` may re-apply it after an agent's rewrite): it appends
 * only while the file holds no more copies of the entry than it did when first read.
 */
export async function appendMemory(
  projectPath: string,
  section: string | undefined,
  text: string,
  now: Date,
  hooks?: SafeWriteHooks
): Promise<{ file: string; line: number; created: boolean }> {
  if (section !== undefined && /[\r\n[\]]/.test(section)) throw new ApiError('section must be one line without brackets', 'invalid_input')
  const dir = join(projectPath, 'memory')
  await writableTarget(dir, projectPath)
  await makeDir(dir)
  const day = ymd(now)
  const head = section ? `## [${section.toUpperCase()}] ${hm(now)}` : `## ${hm(now)}`
  let line = 0
  let before: number | null = null
  const result = await safeEdit(
    join(dir, `${day}.md`),
    (old) => {
      const eol = old ? eolOf(old) : '\n'
      const entry = [head, '', ...text.replace(/\r\n/g, '\n').split('\n')].join(eol) + eol
      const copies = occurrences(old, entry)
      before ??= copies
      if (copies > before) return null
      const base = old === '' ? `# ${day}${eol}` : old.endsWith('\n') ? old : old + eol
      line = splitLines(base).length + 1
      return base + eol + entry
    },
    { within: projectPath, create: true, hooks }
  )
  return { file: `memory/${day}.md`, line, created: result.created }
}

function occurrences(text: string, part: string): number {
  let n = 0
  for (let at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length)) n++
  return n
}
