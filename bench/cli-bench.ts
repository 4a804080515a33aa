/**
 * CLI start-up: `muster --help` against a bare `node -e 0`, as a ratio of medians over
 * interleaved runs (agents' hooks spawn the CLI on every tool call, so its start must stay close
 * to Node's own). Interleaving keeps a load spike on the shared machine from favouring either side.
 */
import { spawnSync } from 'node:child_process'
import { median, type Figure } from './report'

/** Wall times in ms of each command's runs, interleaved `rounds` times (one list per command). */
export function interleavedRuns(commands: string[][], rounds: number, cwd?: string): number[][] {
  const times = commands.map((): number[] => [])
  for (let i = 0; i < rounds; i++) {
    commands.forEach((c, j) => {
      const t = performance.now()
      const r = spawnSync(c[0]!, c.slice(1), { cwd, stdio: ['ignore', 'ignore', 'pipe'] })
      times[j]!.push(performance.now() - t)
      if (r.status !== 0) throw new Error(`${c.join(' ')} exited with ${r.status}: ${r.stderr}`)
    })
  }
  return times
}

/** Median wall time in ms of each command, runs interleaved `rounds` times. */
export function interleavedMedians(commands: string[][], rounds: number, cwd?: string): number[] {
  return interleavedRuns(commands, rounds, cwd).map(median)
}

/**
 * Interleaved rounds of a bare `node -e 0` and `run(i)` (one whole process of ours, timed; it throws
 * on a wrong answer), each followed by `after(i)`, untimed (so work a round leaves behind does not
 * slow the next timed process). Wall times in ms.
 */
export async function againstNode(
  rounds: number,
  run: (i: number) => void,
  after?: (i: number) => Promise<void>
): Promise<{ node: number[]; ours: number[] }> {
  const node: number[] = []
  const ours: number[] = []
  for (let i = 0; i < rounds; i++) {
    let t = performance.now()
    spawnSync(process.execPath, ['-e', '0'])
    node.push(performance.now() - t)
    t = performance.now()
    run(i)
    ours.push(performance.now() - t)
    await after?.(i)
  }
  return { node, ours }
}

/** Each round's ratio of `ours` to `base` (runs of the same round share the machine's load). */
export function roundRatios(ours: number[], base: number[]): number[] {
  return ours.map((t, i) => t / base[i]!)
}

/** `muster --help` vs `node -e 0`: the ratio of medians (budget 1.5x). */
export function cliStartFigures(bin: string): Figure[] {
  const [node, help] = interleavedRuns(
    [
      [process.execPath, '-e', '0'],
      [process.execPath, bin, '--help']
    ],
    21
  )
  const ratios = roundRatios(help!, node!)
  return [
    {
      name: 'muster --help vs node -e 0 (whole process)',
      value: median(ratios),
      runs: ratios,
      unit: 'x',
      budget: 1.5,
      note: `median ratio of 21 interleaved rounds; medians ${median(help!).toFixed(0)} vs ${median(node!).toFixed(0)} ms`
    }
  ]
}
