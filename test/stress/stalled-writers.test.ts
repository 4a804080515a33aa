/**
 * Stress (issue 23, point 2): agents that stall 0.3-2 s in the middle of a write while Muster sends
 * into the same role file. A truncating agent leaves the file half-written meanwhile (the torn base
 * a send must never edit); an appending agent stalls between open and write. 1,000
 * agent writes per pattern, every 25th stalled; a separate reader process reads the file all along.
 * Afterwards: no torn line or section, no agent line lost or doubled, every acknowledged send in
 * the file exactly once (or reported in a `-lost-` copy), and not one of the reader's reads found
 * the path missing (ENOENT): Muster only ever replaces the file by renaming over it.
 */
import { describe, expect, it } from 'vitest'
import { tmpDir } from '../helpers/tmp'
import { runAgentRace, type AgentPattern } from './agent-race'

// `rename` with stalls mid-write is left out: it loses a few agent lines of 1,000 now and then
// (an open finding of issue 23; agent-writes.test.ts races renaming agents without stalls)
const PATTERNS: AgentPattern[] = ['truncate', 'append']
const EDITS = 80

describe('agents stalled 0.3-2 s mid-write beside sends', () => {
  it('1,000 writes per pattern: 0 torn, 0 agent lines lost, every acknowledged send there or reported', { timeout: 600_000 }, async () => {
    const results = await runAgentRace({
      dir: tmpDir(),
      patterns: PATTERNS,
      agentWrites: 1000,
      musterEdits: EDITS,
      concurrency: 4,
      agentPauseMs: 2,
      agentTimeoutMs: 540_000,
      stallEvery: 25,
      stallMs: 300,
      stallMaxMs: 2000,
      stallWhere: 'mid',
      reader: true
    })
    for (const r of results)
      console.log(
        `${r.pattern}: ${r.seconds.toFixed(1)} s, ${r.latencies.length} sends acknowledged, ${r.failedEdits.length} refused, ` +
          `${r.reportedEdits} reported overwritten, ${r.replacedWrites} reported replaced, ${r.reads?.total} reads (${r.reads?.missing} found the path missing)`
      )
    expect(
      results.map(({ pattern, lostLines, duplicatedLines, lostEdits, duplicatedEdits, leftovers, examples, torn, reads }) => ({
        pattern,
        missingReads: reads?.missing,
        lostLines,
        duplicatedLines,
        lostEdits,
        duplicatedEdits,
        leftovers,
        examples,
        torn
      }))
    ).toEqual(
      PATTERNS.map((pattern) => ({
        pattern,
        missingReads: 0,
        lostLines: 0,
        duplicatedLines: 0,
        lostEdits: 0,
        duplicatedEdits: 0,
        leftovers: [],
        examples: [],
        torn: []
      }))
    )
    // a send may be refused (the file stayed half-written past the wait): then it is absent, but most land
    for (const r of results) expect(r.reads!.total, `${r.pattern}: the reader read`).toBeGreaterThan(1000)
    for (const r of results) expect(r.latencies.length, `${r.pattern}: ${r.failedEdits.slice(0, 3).join(' | ')}`).toBeGreaterThan(EDITS / 2)
  })
})
