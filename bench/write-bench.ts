/**
 * Safe-write figures: the stress race of test/stress (each agent write pattern, a Python agent
 * writing 1,000 lines while Muster sends 300 directives into the same role file), counted.
 */
import { join } from 'node:path'
import { runAgentRace } from '../test/stress/agent-race'
import { percentile, type Figure } from './report'

/** Agent lines lost, Muster edits lost or doubled, and Muster's edit latency p95 under contention. */
export async function safeWriteFigures(work: string, root: string): Promise<Figure[]> {
  const results = await runAgentRace({
    dir: join(work, 'agent-race'),
    patterns: ['append', 'truncate', 'rename'],
    agentWrites: 1000,
    musterEdits: 300,
    concurrency: 1, // the operator's view: one send at a time (npm test races 6 at a time)
    agentPauseMs: 4,
    agentTimeoutMs: 300_000,
    agentScript: join(root, 'test', 'stress', 'agent_writer.py')
  })
  const lost = results.reduce((n, r) => n + r.lostLines + r.duplicatedLines, 0)
  const edits = results.reduce((n, r) => n + r.lostEdits + r.duplicatedEdits + r.failedEdits.length, 0)
  const latencies = results.flatMap((r) => r.latencies)
  const per = results.map((r) => `${r.pattern} ${r.lostLines}/${r.duplicatedLines}`).join(', ')
  return [
    {
      name: 'agent lines lost or doubled while Muster edits the same file',
      value: lost,
      unit: 'lines',
      budget: 0,
      note: `append, truncate+write, temp+rename agents x 1,000 writes vs 300 sends each (lost/doubled: ${per})`
    },
    {
      name: 'Muster edits lost, doubled or failed in that race',
      value: edits,
      unit: 'edits',
      budget: 0,
      note: `${latencies.length} of 900 sends landed once`
    },
    {
      name: 'Muster edit latency p95 under contention (send into a file an agent is writing)',
      value: percentile(latencies, 95),
      runs: latencies,
      unit: 'ms',
      budget: 500,
      note: `median ${percentile(latencies, 50).toFixed(0)} ms, one send at a time, 3 files at once`
    }
  ]
}
