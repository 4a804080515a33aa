/**
 * Chaos for one approval's way, in separate processes as in real use: a stand-in harness runs the
 * real `muster approve-hook` (its request goes to a hub server, test/hub_server.py), the operator
 * decides through `muster serve`, the harness runs the call once it is allowed and sends Claude
 * Code's PostToolUse to `muster session-hook` (the receipt). At each stage of the request (asked,
 * shown in the inbox, decided, delivered) one of the four processes is killed outright (SIGKILL):
 * the hook, the serve process, the hub server or the harness; the server and the hub come back,
 * the hook and the harness do not. Whatever was killed:
 * - no decision is lost: a decision the operator was told is recorded stands in the hub, and
 *   reaches a harness that still waits for it;
 * - none is duplicated: one decision per request, no conflicts, each receipt stage at most once;
 * - nothing is recorded as delivered that the harness did not get, or as ran that did not run.
 * Timeouts are sized for a slow, busy 2-core machine; nothing asserts how long a step took.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { builtCli } from './helpers/built-cli'
import { registerHubServer } from './helpers/hub-server-cli'
import type { HubServer } from './helpers/hub-server'
import { callServe, startServe, type ServeProcess } from './helpers/serve-process'
import { tmpDir } from './helpers/tmp'
import { createService } from '../src/core/root'
import { enableReceipts } from '../src/core/approvals/receipt-markers'

const OPERATOR = 'desk-muster'
const SERVE_TOKEN = 'chaos-serve-token-0123456789abcdef'
const STAGES = ['asked', 'shown', 'decided', 'delivered'] as const
const TARGETS = ['hook', 'serve', 'hub', 'harness'] as const
type Stage = (typeof STAGES)[number]
type Target = (typeof TARGETS)[number]

let bin: string
let home: string
let hub: HubServer & { palace: string }
let serve: ServeProcess
let harnessScript: string

/**
 * The stand-in harness: runs the hook command through `sh -c` with the payload, writes the hook's
 * pid, then what the hook answered (`answer.json`); on an allow it waits for `go`, runs the call
 * (writes `ran`) and sends PostToolUse to the session hook, as Claude Code does.
 */
const HARNESS = `
const { spawn } = require('node:child_process')
const fs = require('node:fs')
const [hookCmd, payload, dir, postCmd, post] = process.argv.slice(2)
const hook = spawn('/bin/sh', ['-c', hookCmd], { stdio: ['pipe', 'pipe', 'pipe'] })
fs.writeFileSync(dir + '/hook.pid', String(hook.pid))
let out = ''
let err = ''
hook.stdout.on('data', (d) => (out += d))
hook.stderr.on('data', (d) => (err += d))
hook.stdin.end(payload)
hook.on('close', (code, signal) => {
  let allow = false
  try { allow = code === 0 && JSON.parse(out).hookSpecificOutput.decision.behavior === 'allow' } catch {}
  fs.writeFileSync(dir + '/answer.json', JSON.stringify({ code, signal, allow, out, err }))
  if (!allow) process.exit(0)
  const wait = setInterval(() => {
    if (!fs.existsSync(dir + '/go')) return
    clearInterval(wait)
    fs.writeFileSync(dir + '/ran', 'ran')
    const p = spawn('/bin/sh', ['-c', postCmd], { stdio: ['pipe', 'ignore', 'ignore'] })
    p.stdin.end(post)
    p.on('close', () => process.exit(0))
  }, 50)
})
setInterval(() => {}, 1000)
`

const q = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Polls `probe` until it gives a value (not null), for at most `ms`. */
async function until<T>(what: string, probe: () => T | null | Promise<T | null>, ms = 90_000): Promise<T> {
  const start = Date.now()
  for (;;) {
    const v = await probe()
    if (v !== null) return v
    if (Date.now() - start > ms) throw new Error(`gave up waiting for ${what}`)
    await sleep(200)
  }
}

/** One request as `muster approvals list --json` shows it (the parts checked here). */
interface Item {
  id: string
  agent: string
  state: string
  stage?: string
  outcome?: string | null
  decision: { decision: string; decided_by: string } | null
  conflicts: { decided_by: string }[]
  receipts?: { stage: string }[]
}

/** The hub's requests of `agent`, read by a `muster` process of its own; null while the hub cannot be read. */
function itemsOf(agent: string): Item[] | null {
  const r = spawnSync(process.execPath, [bin, 'approvals', 'list', '--hub', 'lab', '--history', '200', '--home', home, '--json'], {
    encoding: 'utf8',
    env: { ...process.env, MUSTER_HOME: '', MUSTER_NO_BACKGROUND: '1' },
    timeout: 60_000
  })
  if (r.status !== 0) return null
  try {
    const list = JSON.parse(r.stdout) as { pending: Item[]; history: Item[]; hubs?: { ok: boolean }[] }
    if (list.hubs?.some((h) => !h.ok)) return null
    return [...list.pending, ...list.history].filter((i) => i.agent === agent)
  } catch {
    return null
  }
}

/** Kills a process outright; one already gone is fine. */
function kill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL')
  } catch {
    // gone already
  }
}

beforeAll(async () => {
  bin = builtCli()
  home = join(tmpDir(), 'home')
  const service = await createService({ home, transport: 'http', watch: false })
  await service.call('settings.update', { operatorId: OPERATOR })
  await service.close()
  hub = await registerHubServer(home, { token: 'chaos-hub-token-0123456789abcdef', name: 'lab' })
  enableReceipts(home, 'claude-code')
  serve = await startServe(bin, home, SERVE_TOKEN)
  harnessScript = join(tmpDir(), 'harness.cjs')
  writeFileSync(harnessScript, HARNESS)
}, 240_000)

afterAll(async () => {
  if (serve) kill(serve.proc.pid!)
  await hub?.stop()
})

/** Restarts what was killed and can come back (the server, the hub); the hook and the harness cannot. */
async function revive(target: Target): Promise<void> {
  if (target === 'serve') {
    await serve.exited
    serve = await startServe(bin, home, SERVE_TOKEN)
  }
  if (target === 'hub') await hub.restart()
}

/** The operator's decision through `muster serve`: retried while the server or the hub is away. */
async function decide(id: string): Promise<{ accepted: boolean; text: string }> {
  return until(
    'the decision to be taken or refused',
    async () => {
      const r = await callServe(serve.port, SERVE_TOKEN, 'approvals.decide', { hub: 'lab', id, decision: 'allow' })
      if (r.status === 200) return { accepted: true, text: r.text }
      // refused for a reason (nobody waits, decided already): final; the server or hub away: again
      if (r.status >= 400 && r.status < 500) return { accepted: false, text: r.text }
      return null
    },
    120_000
  )
}

describe('an approval survives any one process killed at any stage', () => {
  const cases = TARGETS.flatMap((target) => STAGES.map((stage) => [target, stage] as [Target, Stage]))

  it.each(cases)(
    'kill the %s when the request is %s',
    async (target, stage) => {
      const agent = `chaos-${target}-${stage}`
      const dir = tmpDir()
      const session = `s-${agent}`
      const command = `touch ${join(dir, 'ran')}`
      const ask = {
        session_id: session,
        transcript_path: `/home/op/.claude/projects/x/${session}.jsonl`,
        cwd: dir,
        permission_mode: 'default',
        hook_event_name: 'PermissionRequest',
        tool_name: 'Bash',
        tool_input: { command, description: 'chaos' }
      }
      const post = { ...ask, hook_event_name: 'PostToolUse', tool_use_id: `toolu_${agent}`, tool_response: { stdout: '', stderr: '' } }
      const hookCmd = `exec ${[process.execPath, bin, 'approve-hook', '--home', home, '--hub', 'lab', '--agent', agent, '--timeout-ms', '600000'].map(q).join(' ')}`
      const postCmd = `exec ${[process.execPath, bin, 'session-hook', '--home', home, '--agent', agent, '--harness', 'claude'].map(q).join(' ')}`
      const harness: ChildProcess = spawn(
        process.execPath,
        [harnessScript, hookCmd, JSON.stringify(ask), dir, postCmd, JSON.stringify(post)],
        { stdio: 'ignore', env: { ...process.env, MUSTER_HOME: '' } }
      )
      const harnessGone = new Promise<void>((r) => harness.on('close', () => r()))
      const hookPid = () => Number(readFileSync(join(dir, 'hook.pid'), 'utf8'))
      const hookAlive = (): boolean => {
        try {
          process.kill(hookPid(), 0)
          return true
        } catch {
          return false
        }
      }
      const at = async (s: Stage) => {
        if (s !== stage) return
        if (target === 'hub') hub.signal('SIGKILL')
        else kill(target === 'hook' ? hookPid() : target === 'harness' ? harness.pid! : serve.proc.pid!)
        await revive(target)
      }

      // asked: the request is in the hub
      const item = await until('the request in the hub', () => itemsOf(agent)?.[0] ?? null)
      await at('asked')
      // shown: the inbox of the server lists it (the server back, if it was killed)
      await until('the request in the inbox', async () => {
        const r = await callServe(serve.port, SERVE_TOKEN, 'approvals.list', { hub: 'lab' })
        if (r.status !== 200) return null
        const list = JSON.parse(r.text) as { pending: Item[]; history: Item[] }
        return [...list.pending, ...list.history].some((i) => i.id === item.id) ? true : null
      })
      await at('shown')
      // the harness killed once the decision is taken: the hook is held still meanwhile (as on a
      // busy machine), so the harness is surely gone before the answer is printed
      const hold = target === 'harness' && stage === 'decided'
      if (hold) process.kill(hookPid(), 'SIGSTOP')
      const decided = await decide(item.id)
      await at('decided')
      if (hold) {
        await harnessGone
        process.kill(hookPid(), 'SIGCONT')
      }
      // delivered: the harness has the hook's answer (or the harness or the hook is gone)
      const answerFile = join(dir, 'answer.json')
      await until('the answer or the end of the harness', async () =>
        existsSync(answerFile) || harness.exitCode !== null || harness.signalCode !== null ? true : null
      )
      await at('delivered')
      writeFileSync(join(dir, 'go'), '')
      await harnessGone

      const answer = existsSync(answerFile) ? (JSON.parse(readFileSync(answerFile, 'utf8')) as { allow: boolean; out: string }) : null
      // what the harness read from the hook, even when the hook was killed before it could exit
      const printedAllow = /"behavior":"allow"/.test(answer?.out ?? '')
      const ran = existsSync(join(dir, 'ran'))
      // once the call ran, its receipt comes (the session hook's worker records it)
      const final = await until('the request to settle', () => {
        // the hook records what became of its answer before it ends
        if (hookAlive()) return null
        const items = itemsOf(agent)
        if (!items) return null
        const it = items[0]!
        if (ran && it.outcome !== 'ran') return null
        return it
      })
      const items = itemsOf(agent)!

      // one request; the operator's decision once (a retried send is not a second one), kept in the
      // thread; beside it at most the hook's own record that its harness went away, when the two
      // raced: the first one wins, the other stands as a conflict, and nothing was delivered
      expect(items).toHaveLength(1)
      const all = [final.decision, ...final.conflicts]
      expect(all.filter((d) => d?.decided_by === OPERATOR)).toHaveLength(decided.accepted ? 1 : 0)
      expect(all.filter((d) => d?.decided_by === 'abandoned').length).toBeLessThanOrEqual(1)
      expect(all.every((d) => d === null || d.decided_by === OPERATOR || d.decided_by === 'abandoned')).toBe(true)
      if (final.conflicts.length) expect(['withdrawn', 'not_delivered']).toContain(final.stage)
      else if (decided.accepted) expect(final.decision).toMatchObject({ decision: 'allow', decided_by: OPERATOR })
      // no receipt stage twice
      const stages = (final.receipts ?? []).map((r) => r.stage)
      expect(stages.length, stages.join(',')).toBe(new Set(stages).size)
      // nothing recorded as delivered that the harness did not read, or as ran that did not run
      if (stages.includes('delivered')) expect(printedAllow).toBe(true)
      if (final.outcome === 'ran') expect(ran).toBe(true)
      if (ran) expect(answer?.allow).toBe(true)
      // the server and the hub come back: the decision reaches the harness, the call runs once, and is recorded as ran
      if (target === 'serve' || target === 'hub') {
        expect(decided.accepted, decided.text).toBe(true)
        expect(answer?.allow).toBe(true)
        expect(final).toMatchObject({ state: 'allow', stage: 'done', outcome: 'ran' })
      }
      // a harness killed before its answer never runs the call, and the record says it was not delivered
      if (target === 'harness' && stage !== 'delivered') {
        expect(ran).toBe(false)
        expect(final.outcome ?? null).toBeNull()
        expect(stages).not.toContain('delivered')
        expect(['withdrawn', 'not_delivered']).toContain(final.stage)
      }
      // killed once decided, before it could read the answer: the request ends as withdrawn
      if (target === 'harness' && stage === 'decided') expect(final).toMatchObject({ state: 'allow', stage: 'withdrawn' })
    },
    300_000
  )
})
