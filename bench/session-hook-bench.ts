/**
 * The lifecycle hook's start-up (issue 19 point 6): `muster session-hook` runs on every prompt of
 * every agent, so the whole process (read the payload, start the detached worker, exit) must stay
 * within 1.5x of `node -e 0`. Interleaved rounds, so a load spike on the shared machine favours
 * neither side. The worker's append happens after the hook has exited; the figure checks it landed.
 * The receipt hook (issue 32) is the same command on Claude Code's PostToolUse, which runs after
 * every tool call: within 1.3x of `node -e 0`, for a call that left no marker (the common case:
 * allowlisted and unasked calls).
 */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { LocalHub } from '../src/core/hub/local/local-hub'
import { createHub } from '../src/core/hub/store/schema'
import { againstNode, roundRatios } from './cli-bench'
import { median, type Figure } from './report'

const ROUNDS = 21

/** A Claude Code UserPromptSubmit payload. */
function payload(n: number): string {
  return JSON.stringify({
    session_id: `bench-session-${n}`,
    transcript_path: '/home/op/.claude/projects/atlas/bench.jsonl',
    cwd: '/srv/fleet/atlas',
    permission_mode: 'default',
    hook_event_name: 'UserPromptSubmit',
    prompt: 'Run the migration and open a pull request.'
  })
}

/** A Claude Code PostToolUse payload (what the receipt hook reads after every call). */
function postToolUse(n: number): string {
  return JSON.stringify({
    session_id: `bench-receipt-session`,
    transcript_path: '/home/op/.claude/projects/atlas/bench.jsonl',
    cwd: '/srv/fleet/atlas',
    permission_mode: 'default',
    hook_event_name: 'PostToolUse',
    tool_name: 'Bash',
    tool_input: { command: `npm test -- --shard ${n}` },
    tool_response: { stdout: 'ok', stderr: '', interrupted: false },
    tool_use_id: `toolu_bench_${n}`
  })
}

/** The receipt hook on PostToolUse, whole process, against node -e 0. */
export async function receiptHookFigures(root: string, work: string): Promise<Figure[]> {
  const bin = join(root, 'bin', 'muster.cjs')
  const home = join(work, 'home-receipt-hook')
  const palace = join(work, 'receipt-hook-hub')
  createHub(palace).close()
  const args = [bin, '--home', home, '--palace', palace, 'session-hook', '--agent', 'bench-claude', '--harness', 'claude', '--receipts']
  const { node: nodeTimes, ours: hookTimes } = await againstNode(ROUNDS, (i) => {
    const r = spawnSync(process.execPath, args, { input: postToolUse(i) })
    if (r.status !== 0) throw new Error(`receipt hook failed: ${r.status} ${r.stderr}`)
  })
  const ratios = roundRatios(hookTimes, nodeTimes)
  const hookMs = median(hookTimes)
  const nodeMs = median(nodeTimes)
  return [
    {
      name: 'receipt hook (PostToolUse, no marker): whole process vs node -e 0',
      value: median(ratios),
      runs: ratios,
      unit: 'x',
      budget: 1.3,
      note: `median ratio of ${ROUNDS} interleaved rounds; medians ${hookMs.toFixed(0)} vs ${nodeMs.toFixed(0)} ms (spec: within 1.3x; exit 0 every time)`
    }
  ]
}

/** Waits (up to 30 s) until the hub holds `count` session states; returns how many it holds. */
async function landedAtLeast(palace: string, count: number): Promise<number> {
  const hub = new LocalHub(palace)
  try {
    for (let waited = 0; ; waited += 10) {
      const landed = (await hub.list({ type: 'status', topic: 'session', limit: count + 1 })).events.length
      if (landed >= count || waited > 30_000) return landed
      await new Promise((r) => setTimeout(r, 10))
    }
  } finally {
    await hub.close()
  }
}

/** The session hook, whole process, against node -e 0. */
export async function sessionHookFigures(root: string, work: string): Promise<Figure[]> {
  const bin = join(root, 'bin', 'muster.cjs')
  const home = join(work, 'home-session-hook')
  const palace = join(work, 'session-hook-hub')
  createHub(palace).close()
  const hookArgs = [bin, '--home', home, '--palace', palace, 'session-hook', '--agent', 'bench-claude', '--harness', 'claude']
  const { node: nodeTimes, ours: hookTimes } = await againstNode(
    ROUNDS,
    (i) => {
      const r = spawnSync(process.execPath, hookArgs, { input: payload(i) })
      if (r.status !== 0 || String(r.stderr).trim()) throw new Error(`session-hook failed: ${r.status} ${r.stderr}`)
    },
    // the detached worker appends after the hook exited: let it finish before the next round, so
    // it does not slow a timed process on a 2-core machine
    (i) => landedAtLeast(palace, i + 1).then(() => undefined)
  )
  // the detached workers append after the hooks exited: wait for all of them
  const hub = new LocalHub(palace)
  let landed = 0
  for (let waited = 0; waited < 30_000; waited += 100) {
    landed = (await hub.list({ type: 'status', topic: 'session', limit: 100 })).events.length
    if (landed >= ROUNDS) break
    await new Promise((r) => setTimeout(r, 100))
  }
  await hub.close()
  if (landed < ROUNDS) throw new Error(`only ${landed} of ${ROUNDS} session states reached the hub`)
  const ratios = roundRatios(hookTimes, nodeTimes)
  const hookMs = median(hookTimes)
  const nodeMs = median(nodeTimes)
  return [
    {
      name: 'session-hook: whole process, median',
      value: hookMs,
      runs: hookTimes,
      unit: 'ms',
      budget: 150,
      note: `median of ${ROUNDS} runs interleaved with node -e 0; every state reached the hub`
    },
    {
      name: 'session-hook: whole process vs node -e 0',
      value: median(ratios),
      runs: ratios,
      unit: 'x',
      budget: 1.5,
      note: `median ratio of ${ROUNDS} interleaved rounds; medians ${hookMs.toFixed(0)} vs ${nodeMs.toFixed(0)} ms (spec: within 1.5x)`
    }
  ]
}
