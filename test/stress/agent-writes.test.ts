/**
 * Stress: for each way agents write (append mode, truncate + write, temp + rename), a separate
 * Python process writes 1,000 unique lines into a role file while Muster sends 300 directives into
 * the same file (6 at a time, as a server would; 300 lines against 90 directives in `npm test`,
 * the full size under `MUSTER_STRESS=full`, see stress-size.ts), the two kept in step so every edit races agent
 * writes however loaded the machine is. Every agent line and every directive must be in the file
 * exactly once, and no Muster working file may be left. Where the system has no atomic exchange
 * (`rename-exchange.ts`; Linux and macOS have one), the documented limit of `safe-write.ts` applies:
 * a renaming agent whose rename lands between Muster's final check and its own rename loses that
 * version, and each such loss must be reported (`replacedWrites`), never silent. The three patterns run at once (bounded: agents are killed
 * after 150 s, each edit gives up after 10 s, the test after 240 s).
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tmpDir } from '../helpers/tmp'
import { canExchange } from '../../src/core/muse/rename-exchange'
import { runAgentRace, type AgentPattern } from './agent-race'
import { stressSize } from './stress-size'

const PATTERNS: AgentPattern[] = ['append', 'truncate', 'rename']
const AGENT_WRITES = stressSize(1000, 300)
const MUSTER_EDITS = stressSize(300, 90)

describe('agents and Muster writing one role file at once', () => {
  it(
    `${AGENT_WRITES} agent writes against ${MUSTER_EDITS} Muster edits, per write pattern: nothing lost, nothing twice`,
    { timeout: 600_000 },
    async () => {
      const limit = !canExchange(join(tmpDir(), 'x'))
      const results = await runAgentRace({
        dir: tmpDir(),
        patterns: PATTERNS,
        agentWrites: AGENT_WRITES,
        musterEdits: MUSTER_EDITS,
        concurrency: 6,
        agentPauseMs: 4,
        agentTimeoutMs: 540_000
      })
      for (const r of results) {
        const p95 = [...r.latencies].sort((a, b) => a - b)[Math.ceil(r.latencies.length * 0.95) - 1]
        console.log(
          `${r.pattern}: ${r.seconds.toFixed(1)} s, ${r.latencies.length} edits, p95 ${p95?.toFixed(0)} ms, failed ${r.failedEdits.length}, ` +
            `${r.lostLines} agent lines lost, ${r.replacedWrites} versions reported replaced in the window`
        )
      }
      expect(
        results.map(
          ({ pattern, lostLines, replacedWrites, duplicatedLines, lostEdits, duplicatedEdits, failedEdits, leftovers, examples }) => ({
            pattern,
            // with the exchange nothing is lost; without, each version replaced in the window loses
            // the one line it added, and was reported
            unreportedLostLines: limit ? Math.max(0, lostLines - replacedWrites) : lostLines,
            reportedReplacedOutsideRename: pattern === 'rename' ? 0 : replacedWrites,
            duplicatedLines,
            lostEdits,
            duplicatedEdits,
            failedEdits,
            leftovers,
            examples: limit && replacedWrites ? examples.filter((e) => !(e.startsWith('agent-') && e.endsWith(' x0'))) : examples
          })
        )
      ).toEqual(
        PATTERNS.map((pattern) => ({
          pattern,
          unreportedLostLines: 0,
          reportedReplacedOutsideRename: 0,
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
