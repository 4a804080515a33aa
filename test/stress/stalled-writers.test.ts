/**
 * Stress (issue 23, point 2): agents that stall 0.3-2 s in the middle of a write while Muster sends
 * into the same role file. A truncating agent leaves the file half-written meanwhile (the torn base
 * a send must never edit); an appending agent stalls between open and write; a renaming agent
 * stalls with its temp file half-written and renames a version built from an older read. 1,000
 * agent writes per pattern under `MUSTER_STRESS=full` (300 in `npm test`, see stress-size.ts),
 * every 25th stalled; a separate reader process reads the file all along. Afterwards: no torn line
 * or section, no agent line lost or doubled, every acknowledged send in the file exactly once (none
 * kept aside in a `-lost-` copy), and not one of the reader's reads found the path missing (ENOENT):
 * Muster only ever replaces the file by renaming over it.
 *
 * A renaming agent's version that lands in the instant between Muster's last check and its swap is
 * handed back by the atomic exchange (`rename-exchange.ts`) and the edit redone on it, so its lines
 * are asserted like the others'. Where the system has no exchange (none here on Linux or macOS),
 * that instant is the documented limit: the losses are printed and must each be reported.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tmpDir } from '../helpers/tmp'
import { canExchange } from '../../src/core/muse/rename-exchange'
import { NOTHING_LOST, runAgentRace, type AgentPattern } from './agent-race'
import { stressSize } from './stress-size'

const PATTERNS: AgentPattern[] = ['truncate', 'append', 'rename']
const WRITES = stressSize(1000, 300)
const EDITS = stressSize(80, 24)

describe('agents stalled 0.3-2 s mid-write beside sends', () => {
  it(
    `${WRITES} writes per pattern: 0 torn, 0 agent lines lost, every acknowledged send in the file, 0 ENOENT`,
    { timeout: 600_000 },
    async () => {
      const results = await runAgentRace({
        dir: tmpDir(),
        patterns: PATTERNS,
        agentWrites: WRITES,
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
      // without an atomic exchange a renaming agent's write in the swap's instant is replaced: reported
      const limit = !canExchange(join(tmpDir(), 'x'))
      for (const r of results)
        console.log(
          `${r.pattern}: ${r.seconds.toFixed(1)} s, ${r.latencies.length} sends acknowledged, ${r.failedEdits.length} refused, ` +
            `${r.reportedEdits} reported overwritten, ${r.lostLines} agent lines lost, ${r.replacedWrites} versions reported replaced, ${r.reads?.total} reads (${r.reads?.missing} found the path missing)`
        )
      expect(
        results.map(
          ({
            pattern,
            lostLines,
            replacedWrites,
            duplicatedLines,
            lostEdits,
            reportedEdits,
            duplicatedEdits,
            leftovers,
            examples,
            torn,
            reads
          }) => ({
            pattern,
            missingReads: reads?.missing,
            lostLines: limit && pattern === 'rename' ? Math.max(0, lostLines - replacedWrites) : lostLines,
            reportedReplacedOutsideRename: limit && pattern === 'rename' ? 0 : replacedWrites,
            duplicatedLines,
            lostEdits,
            // acknowledged sends dropped by an agent are merged again, not kept aside (issue 36)
            reportedEdits,
            duplicatedEdits,
            leftovers,
            examples: limit && pattern === 'rename' ? examples.filter((e) => !(e.startsWith('agent-') && e.endsWith(' x0'))) : examples,
            torn
          })
        )
      ).toEqual(
        PATTERNS.map((pattern) => ({
          pattern,
          missingReads: 0,
          reportedReplacedOutsideRename: 0,
          ...NOTHING_LOST
        }))
      )
      // a send may be refused (the file stayed half-written past the wait): then it is absent, but most land
      for (const r of results) expect(r.reads!.total, `${r.pattern}: the reader read`).toBeGreaterThan(1000)
      for (const r of results)
        expect(r.latencies.length, `${r.pattern}: ${r.failedEdits.slice(0, 3).join(' | ')}`).toBeGreaterThan(EDITS / 2)
    }
  )
})
