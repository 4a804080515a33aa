import { describe, expect, it } from 'vitest'
import { parseDiff } from 'react-diff-view'
import { rowChunks, sliceRows } from './row-chunks'

/** A one-hunk patch: every 4th line context, then one removed and two added lines. */
function hunks(n: number) {
  const lines: string[] = []
  for (let i = 0; i < n; i++) lines.push(i % 4 === 0 ? ` ctx ${i}` : i % 4 === 1 ? `-old ${i}` : `+new ${i}`)
  const old = lines.filter((l) => !l.startsWith('+')).length
  const add = lines.filter((l) => !l.startsWith('-')).length
  const patch = `diff --git a/f.ts b/f.ts\n--- a/f.ts\n+++ b/f.ts\n@@ -1,${old} +1,${add} @@\n${lines.join('\n')}\n`
  return parseDiff(patch, { nearbySequences: 'zip' })[0]!.hunks
}

describe('row chunks', () => {
  it('cover every row once, in order, the first about the first screen and the rest about a frame each', () => {
    const h = hunks(1000)
    const chunks = rowChunks(h, 120, 100)
    expect(chunks[0]![0]).toBe(0)
    expect(chunks.at(-1)![1]).toBe(1000)
    for (let i = 1; i < chunks.length; i++) expect(chunks[i]![0]).toBe(chunks[i - 1]![1])
    expect(chunks[0]![1] - chunks[0]![0]).toBeGreaterThanOrEqual(120)
    for (const [from, to] of chunks.slice(1, -1)) expect(to - from).toBeLessThanOrEqual(200)
    expect(chunks.flatMap(([a, b]) => sliceRows(h, a, b).flatMap((x) => x.changes))).toEqual(h.flatMap((x) => x.changes))
  })

  it('start each chunk on a context line, so a removed line and its added pair stay together', () => {
    const h = hunks(1000)
    const rows = h.flatMap((x) => x.changes)
    for (const [from] of rowChunks(h, 121, 101).slice(1)) expect(rows[from]!.type).toBe('normal')
  })

  it('give an empty file no chunk and a small one a single chunk', () => {
    expect(rowChunks([], 120)).toEqual([])
    expect(rowChunks(hunks(30), 120)).toEqual([[0, 30]])
  })
})
