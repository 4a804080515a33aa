/**
 * The diff view renders a file's rows in chunks: the first screen's rows at once, then one chunk
 * per frame, each its own table, so no step re-renders the rows before it. Chunk edges fall on a
 * context line or a hunk's start, so a removed line and the added line it pairs with in the split
 * view always land in the same chunk.
 */
import type { HunkData } from 'react-diff-view'

/** Rows of each chunk after the first screen (about one frame's work). */
export const CHUNK_ROWS = 100

/** Changes `from`..`to` (by position across hunks) as hunks; Hunk and tokenize draw no header. */
export function sliceRows(hunks: HunkData[], from: number, to: number): HunkData[] {
  const out: HunkData[] = []
  let pos = 0
  for (const h of hunks) {
    const start = Math.max(from - pos, 0)
    const end = Math.min(to - pos, h.changes.length)
    if (start < end) out.push(start === 0 && end === h.changes.length ? h : { ...h, changes: h.changes.slice(start, end) })
    pos += h.changes.length
    if (pos >= to) break
  }
  return out
}

/**
 * The chunks' `[from, to)` row ranges: the first about `first` rows, then about `size` each, an
 * edge moved forward to the next context line or hunk start (at most `size` rows further).
 */
export function rowChunks(hunks: HunkData[], first: number, size = CHUNK_ROWS): [number, number][] {
  const safe: boolean[] = [] // safe[p]: a chunk may start at row p
  for (const h of hunks) h.changes.forEach((c, i) => safe.push(i === 0 || c.type === 'normal'))
  const total = safe.length
  const chunks: [number, number][] = []
  let from = 0
  let want = first
  while (from < total) {
    let to = Math.min(from + want, total)
    const limit = Math.min(to + size, total)
    while (to < limit && !safe[to]) to++
    chunks.push([from, to])
    from = to
    want = size
  }
  return chunks
}
