/**
 * Gate health (issue 30): checking every installed gate (start the launcher's build, ask each
 * harness its version, read Codex's trust, reach the hub) runs in a worker thread and is cached,
 * so the Overview pays nothing for it. Measured with a gate per harness installed in one home: the
 * longest event-loop stall of the service while a check runs, and `gates.list` (what the Overview's
 * panel reads) answered meanwhile.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { createHub } from '../src/core/hub/store/schema'
import { createService } from '../src/core/root'
import { percentile, type Figure } from './report'

const HARNESSES = ['claude', 'codex', 'gemini', 'copilot', 'cursor', 'opencode']

/** The gate health figures. */
export async function gatesFigures(root: string, work: string): Promise<Figure[]> {
  const bin = join(root, 'bin', 'muster.cjs')
  const home = join(work, 'home-gates')
  const user = join(work, 'user-gates')
  const palace = join(work, 'gates-hub')
  createHub(palace).close()
  mkdirSync(user, { recursive: true })
  for (const h of HARNESSES) {
    const settings = join(user, `${h}-settings`, h === 'copilot' ? 'muster.json' : 'settings.json')
    const args = [bin, 'approve-hook', 'install', '--harness', h, '--agent', `bench-${h}`, '--settings', settings]
    const r = spawnSync(process.execPath, [...args, '--home', home, '--palace', palace], { env: { ...process.env, HOME: user } })
    if (r.status !== 0) throw new Error(`install ${h}: ${r.stderr}`)
  }
  const service = await createService({ home, transport: 'http', watch: false, env: { ...process.env, HOME: user } })
  const lists: number[] = []
  let stall = 0
  let gates = 0
  try {
    let last = performance.now()
    const tick = setInterval(() => {
      stall = Math.max(stall, performance.now() - last - 5)
      last = performance.now()
    }, 5)
    const check = service.call('gates.check', {}) as Promise<{ gates: unknown[] }>
    let done = false
    void check.then(() => (done = true))
    while (!done) {
      const t = performance.now()
      await service.call('gates.list', {})
      lists.push(performance.now() - t)
      await new Promise((r) => setTimeout(r, 10))
    }
    gates = (await check).gates.length
    clearInterval(tick)
  } finally {
    await service.close()
  }
  return [
    {
      name: `gate health check (${gates} gates): longest event-loop stall of the service`,
      value: stall,
      unit: 'ms',
      budget: 50,
      note: 'checked in a worker thread; sampled every 5 ms'
    },
    {
      name: 'gates.list (the Overview panel) while a check runs, p95',
      value: percentile(lists, 95),
      runs: lists,
      unit: 'ms',
      budget: 5,
      note: `${lists.length} calls during one check: the cached report`
    }
  ]
}
