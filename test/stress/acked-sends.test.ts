/**
 * Stress (issue 36, point 2): acknowledged sends land. An agent in its own process per write
 * pattern (truncate, append, rename) writes the role file at its own pace, free of the sends'
 * lockstep, either stalled 250 ms between opening and writing on every 10th write, or stopped with
 * SIGSTOP for 0.05-2.5 s at random (a process the machine or a debugger froze). Truncating and
 * renaming agents rewrite the file from reads older than Muster's sends and drop sends Muster
 * already acknowledged; each must be applied again on the agent's new version (a send only adds
 * lines, so this is a 3-way merge that cannot conflict), so every acknowledged send ends in the
 * file, none kept aside in a `-lost-` copy, no agent line is lost and no line is torn.
 * `MUSTER_STRESS=full`: 1,000 agent writes and 100 sends per pattern, 300 sends per case.
 */
import { describe, expect, it } from 'vitest'
import { tmpDir } from '../helpers/tmp'
import { NOTHING_LOST, runAgentRace, type AgentPattern, type RaceOptions, type RaceResult } from './agent-race'
import { stressSize } from './stress-size'

const PATTERNS: AgentPattern[] = ['truncate', 'append', 'rename']
const WRITES = stressSize(1000, 200)
const EDITS = stressSize(100, 24)

/** The counts that must all be zero, by case. */
function outcome(name: string, r: RaceResult) {
  console.log(
    `${name}: ${r.seconds.toFixed(1)} s, ${r.latencies.length} sends acknowledged, ${r.failedEdits.length} refused, ` +
      `${r.reportedEdits} kept aside, ${r.lostEdits} lost, ${r.lostLines} agent lines lost`
  )
  const { lostLines, duplicatedLines, lostEdits, reportedEdits, duplicatedEdits, leftovers, examples, torn } = r
  return { name, lostLines, duplicatedLines, lostEdits, reportedEdits, duplicatedEdits, leftovers, examples, torn }
}

const clean = (name: string) => ({ name, ...NOTHING_LOST })

const base = (): RaceOptions => ({
  dir: tmpDir(),
  patterns: PATTERNS,
  agentWrites: WRITES,
  musterEdits: EDITS,
  concurrency: 4,
  agentPauseMs: 2,
  agentTimeoutMs: 540_000,
  free: true
})

describe('acknowledged sends beside agents that stall or are stopped, per write pattern', () => {
  it(`stalled 250 ms every 10th write: all of ${EDITS} sends per pattern in the file`, { timeout: 600_000 }, async () => {
    const results = await runAgentRace({ ...base(), stallEvery: 10, stallMs: 250 })
    expect(results.map((r) => outcome(`stalled ${r.pattern}`, r))).toEqual(PATTERNS.map((p) => clean(`stalled ${p}`)))
    for (const r of results) expect(r.latencies.length, r.pattern).toBeGreaterThan(EDITS / 2)
  })

  it(`stopped (SIGSTOP) 0.05-2.5 s at random: all of ${EDITS} sends per pattern in the file`, { timeout: 600_000 }, async () => {
    const results = await runAgentRace({ ...base(), sigstop: { minMs: 50, maxMs: 2500, gapMs: 400 } })
    expect(results.map((r) => outcome(`stopped ${r.pattern}`, r))).toEqual(PATTERNS.map((p) => clean(`stopped ${p}`)))
    for (const r of results) expect(r.latencies.length, r.pattern).toBeGreaterThan(EDITS / 2)
  })
})
