/**
 * Approvals figures (issue: approvals inbox and approve-hook):
 * - the inbox with 200 pending requests from 50 agents: click on "Approvals" to the rows painted,
 *   in Chromium against `muster serve` (the list is already loaded by the sidebar's badge, as it
 *   is for an operator, so this is the screen's own render);
 * - `muster approve-hook` answering an allowlisted call through its gate launcher (the file the
 *   harness settings name, `<home>/bin/muster-gate.cjs`), whole process, median and ratio to
 *   `node -e 0` (interleaved runs, so a load spike on the shared machine favours neither side);
 * - the operator's decision (the dashboard's `approvals.decide` call) to the waiting hook process
 *   printing its answer and exiting, p95.
 */
import { spawn, spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { chromium, type Page } from '@playwright/test'
import { requestAppend, type ApprovalAsk } from '../src/core/approvals/approval-events'
import { launcherPath, writeLauncher } from '../src/core/approvals/gate-launcher'
import { LocalHub } from '../src/core/hub/local/local-hub'
import { createHub } from '../src/core/hub/store/schema'
import { createService, drainHookJobs, openRoot } from '../src/core/root'
import { againstNode, roundRatios } from './cli-bench'
import { serve } from './hub-bench'
import { median, percentile, type Figure } from './report'

const AGENTS = 50
const PENDING = 200
/** Interleaved rounds of the allowlisted hook and `node -e 0`. */
const ROUNDS = 21
/** Hook processes decided one after the other for the decision-to-answer figure. */
const DECISIONS = 20
/** Open/close cycles of the Approvals screen. */
const RENDERS = 10

/** One of four realistic calls per agent: a shell command, an edit, a new file, an MCP tool. */
function ask(agent: number, n: number): ApprovalAsk {
  const name = `agent-${String(agent).padStart(2, '0')}`
  const project = ['atlas', 'muse', 'dya', 'ledger', 'pilot'][agent % 5]!
  const cwd = `/srv/fleet/${project}`
  const calls: Pick<ApprovalAsk, 'tool_name' | 'tool_input'>[] = [
    {
      tool_name: 'Bash',
      tool_input: { command: `npm run migrate -- --step ${n} && git push origin feature/${name}`, description: 'Run the migration' }
    },
    {
      tool_name: 'Edit',
      tool_input: { file_path: `${cwd}/src/module-${n}.ts`, old_string: `const limit = ${n}\n`, new_string: `const limit = ${n * 2}\n` }
    },
    { tool_name: 'Write', tool_input: { file_path: `${cwd}/docs/notes-${n}.md`, content: `# Notes ${n}\n\nWritten by ${name}.\n` } },
    {
      tool_name: 'mcp__github__create_pull_request',
      tool_input: { owner: 'fleet', repo: project, title: `Change ${n} from ${name}`, head: `feature/${name}` }
    }
  ]
  return {
    agent: name,
    project,
    to_agent: '*',
    harness: agent % 3 ? 'claude-code' : 'codex',
    hook_event_name: agent % 3 ? 'PreToolUse' : 'PermissionRequest',
    session_id: `sess-${name}`,
    cwd,
    tool_use_id: null,
    timeout_ms: 540_000,
    ...calls[n % calls.length]!
  }
}

/** A hook payload as Claude Code sends it. */
function hookInput(command: string): string {
  return JSON.stringify({
    session_id: 'bench',
    cwd: '/srv/fleet/atlas',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command },
    tool_use_id: 'toolu_bench'
  })
}

/** The few DOM names the in-page measurement uses (the bench compiles without the DOM library). */
interface PageGlobals {
  document: {
    body: unknown
    querySelector(sel: string): { textContent: string | null; click(): void } | null
    querySelectorAll(sel: string): { length: number }
  }
  MutationObserver: new (cb: () => void) => { observe(target: unknown, opts: Record<string, boolean>): void; disconnect(): void }
  requestAnimationFrame(cb: () => void): void
}

/** Click on the sidebar's Approvals to the first rows and the footer painted (next animation frame), in the page. */
async function openInboxMs(page: Page, expected: number): Promise<number> {
  return page.evaluate((count) => {
    const g = globalThis as unknown as PageGlobals
    return new Promise<number>((resolve, reject) => {
      const t0 = performance.now()
      const ready = (): boolean =>
        g.document.querySelectorAll('[data-testid^="approval-row-"]').length > 0 &&
        (g.document.querySelector('.appr-main footer')?.textContent ?? '').startsWith(`${count} `)
      const timer = setTimeout(() => reject(new Error('the inbox did not render')), 10_000)
      const obs = new g.MutationObserver(() => {
        if (!ready()) return
        obs.disconnect()
        clearTimeout(timer)
        g.requestAnimationFrame(() => resolve(performance.now() - t0))
      })
      obs.observe(g.document.body, { childList: true, subtree: true, characterData: true })
      g.document.querySelector('[data-testid="nav-approvals"]')!.click()
    })
  }, expected)
}

/** Waits until the hub holds `count` allowlist decisions (recorded from the hook's spool by a drainer), never more. */
async function recorded(palace: string, count: number): Promise<void> {
  const hub = new LocalHub(palace)
  try {
    for (let waited = 0; ; waited += 10) {
      const { events } = await hub.list({ type: 'approval.decision', limit: count + 1 })
      if (events.length > count) throw new Error(`${events.length} allowlist decisions for ${count} allowlisted calls`)
      if (events.length === count) return
      if (waited > 30_000) throw new Error(`only ${events.length} of ${count} allowlisted calls were recorded in the hub`)
      await new Promise((r) => setTimeout(r, 10))
    }
  } finally {
    await hub.close()
  }
}

/** The three approvals figures. */
export async function approvalsFigures(root: string, work: string): Promise<Figure[]> {
  const bin = join(root, 'bin', 'muster.cjs')
  const home = join(work, 'home-approvals')
  const palace = join(work, 'approvals-hub')
  createHub(palace).close()
  const hub = new LocalHub(palace)
  for (let i = 0; i < PENDING; i++)
    await hub.append(requestAppend(ask(i % AGENTS, Math.floor(i / AGENTS)), `appr_bench${String(i).padStart(7, '0')}`).append)
  await hub.close()
  const service = await createService({ home, transport: 'http', watch: false })
  await service.call('hubs.add', { palace, name: 'fleet' })
  await service.call('approvals.ruleSave', { agent_pattern: 'bench-*', tool_name: 'Bash', input_pattern: 'npm test*' })
  await service.close()

  // 1. an allowlisted call through the launcher, whole process, against node -e 0
  writeLauncher(home, { node: process.execPath, build: bin })
  const launcher = launcherPath(home)
  const hookArgs = (agent: string) => ['approve-hook', '--home', home, '--palace', palace, '--agent', agent]
  const { node: nodeTimes, ours: hookTimes } = await againstNode(
    ROUNDS,
    () => {
      const r = spawnSync(launcher, hookArgs('bench-claude'), {
        input: hookInput('npm test -- --run'),
        env: { ...process.env, MUSTER_HOME: '' },
        encoding: 'utf8'
      })
      if (r.status !== 0 || !r.stdout.includes('"permissionDecision":"allow"'))
        throw new Error(`allowlisted hook did not allow: ${r.status} ${r.stdout} ${r.stderr}`)
    },
    async (i) => {
      // the hook leaves the record in its home's spool: drain it (as the app, serve or the next full
      // hook would) before the next round, so every answered call is checked to be recorded once
      await drainHookJobs(
        home,
        (line) => {
          throw new Error(`recording the allowlisted call failed: ${line}`)
        },
        openRoot
      )
      await recorded(palace, i + 1)
    }
  )
  const hookMs = median(hookTimes)
  const nodeMs = median(nodeTimes)
  const ratios = roundRatios(hookTimes, nodeTimes)

  const server = await serve(bin, home)
  const browser = await chromium.launch({
    executablePath: process.env.MUSTER_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking']
  })
  try {
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } })
    await page.goto(server.url)
    await page
      .getByTestId('approvals-badge')
      .filter({ hasText: String(PENDING) })
      .waitFor({ timeout: 30_000 })
    // 2. the inbox: one warm-up open loads the screen's code, then open/close cycles
    const renders: number[] = []
    for (let i = 0; i <= RENDERS; i++) {
      const ms = await openInboxMs(page, PENDING)
      if (i > 0) renders.push(ms)
      await page.getByTestId('nav-overview').click()
      await page.getByTestId('screen-approvals').waitFor({ state: 'detached' })
    }

    // 3. decision to answer: each hook waits, the dashboard's call decides it
    const answers: number[] = []
    for (let i = 0; i < DECISIONS; i++) {
      const command = `terraform apply -target=module.bench_${i}`
      const proc = spawn(launcher, hookArgs('desk-claude'), {
        env: { ...process.env, MUSTER_HOME: '' },
        stdio: ['pipe', 'pipe', 'pipe']
      })
      let out = ''
      proc.stdout.on('data', (d: Buffer) => (out += d))
      const exited = new Promise<number>((resolve) => proc.on('close', () => resolve(performance.now())))
      proc.stdin.end(hookInput(command))
      const id = await page.evaluate(async (cmd) => {
        for (let n = 0; n < 400; n++) {
          const res = await fetch('/api/call/approvals.list', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{}'
          })
          const list = (await res.json()) as { pending: { id: string; tool_input: { command?: string } }[] }
          const hit = list.pending.find((p) => p.tool_input.command === cmd)
          if (hit) return hit.id
          await new Promise((r) => setTimeout(r, 25))
        }
        return null
      }, command)
      if (!id) throw new Error(`the hook's request for ${command} never reached the inbox`)
      const clicked = performance.now()
      await page.evaluate(async (requestId) => {
        const res = await fetch('/api/call/approvals.decide', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ hub: 'fleet', id: requestId, decision: 'allow' })
        })
        if (!res.ok) throw new Error(`approvals.decide: ${res.status} ${await res.text()}`)
      }, id)
      const end = await exited
      if (!out.includes('"permissionDecision":"allow"')) throw new Error(`the decided hook printed ${out}`)
      answers.push(end - clicked)
    }
    return [
      {
        name: `approvals inbox: ${PENDING} pending from ${AGENTS} agents, click to rows painted, median of ${RENDERS}`,
        value: median(renders),
        runs: renders,
        unit: 'ms',
        budget: 100,
        note: `p95 ${percentile(renders, 95).toFixed(0)} ms, Chromium via muster serve`
      },
      {
        name: 'approve-hook: allowlisted answer through the launcher, whole process, median',
        value: hookMs,
        runs: hookTimes,
        unit: 'ms',
        budget: 150,
        note: `median of ${ROUNDS} runs interleaved with node -e 0; each call drained from the spool into the hub before the next round`
      },
      {
        name: 'approve-hook: allowlisted answer through the launcher vs node -e 0',
        value: median(ratios),
        runs: ratios,
        unit: 'x',
        budget: 1.3,
        note: `median ratio of ${ROUNDS} interleaved rounds; medians ${hookMs.toFixed(0)} vs ${nodeMs.toFixed(0)} ms (spec: within 1.3x)`
      },
      {
        name: `approve-hook: operator's decision to the hook's answer, p95 of ${DECISIONS}`,
        value: percentile(answers, 95),
        runs: answers,
        unit: 'ms',
        budget: 300,
        note: `median ${median(answers).toFixed(0)} ms; the decision is the dashboard's approvals.decide call`
      }
    ]
  } finally {
    await browser.close()
    server.stop()
  }
}
