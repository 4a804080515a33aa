/**
 * Stress: agents descheduled mid-write. A loaded machine can stop a process between opening a file
 * and writing to it for far longer than the quiet window (`safe-write-settle.ts`); a truncating
 * agent leaves the file empty meanwhile. Every 10th agent write here stalls 250 ms after its open
 * (8x the window's floor) while Muster sends directives into the same file: no agent line may be
 * lost and every edit must land exactly once.
 */
import { describe, expect, it } from 'vitest'
import { tmpDir } from '../helpers/tmp'
import { runAgentRace, type AgentPattern } from './agent-race'

const PATTERNS: AgentPattern[] = ['append', 'truncate']

describe('agents stalled between opening a role file and writing it', () => {
  it(
    '300 agent writes (every 10th stalled 250 ms) against 90 Muster edits: nothing lost, nothing twice',
    { timeout: 600_000 },
    async () => {
      const results = await runAgentRace({
        dir: tmpDir(),
        patterns: PATTERNS,
        agentWrites: 300,
        musterEdits: 90,
        concurrency: 6,
        agentPauseMs: 4,
        agentTimeoutMs: 540_000,
        stallEvery: 10,
        stallMs: 250
      })
      for (const r of results)
        console.log(`${r.pattern} with stalls: ${r.seconds.toFixed(1)} s, ${r.latencies.length} edits, failed ${r.failedEdits.length}`)
      expect(
        results.map(({ pattern, lostLines, duplicatedLines, lostEdits, duplicatedEdits, failedEdits, leftovers, examples }) => ({
          pattern,
          lostLines,
          duplicatedLines,
          lostEdits,
          duplicatedEdits,
          failedEdits,
          leftovers,
          examples
        }))
      ).toEqual(
        PATTERNS.map((pattern) => ({
          pattern,
          lostLines: 0,
          duplicatedLines: 0,
          lostEdits: 0,
          duplicatedEdits: 0,
          failedEdits: [],
          leftovers: [],
          examples: []
        }))
      )
    }
  )
})
