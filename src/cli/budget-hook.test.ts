/**
 * Budget gates at the hook, through the built CLI: while no budget is crossed an allowlisted call
 * is answered by the fast path; once a session's budget is crossed, its calls (allowlisted ones
 * included) wait for the operator with the budget on the request, other sessions' do not; raising
 * the budget lets the held allowlisted call run, never a call no rule allows; a gate file that is
 * missing sends the hook the long way, which writes it again.
 */
import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { builtCli } from '../../test/helpers/built-cli'
import { hookHome } from '../../test/helpers/hook-home'
import { startNode, until as untilEvery, type Ended } from '../../test/helpers/child-run'
import { tmpDir } from '../../test/helpers/tmp'
import { openStateDb } from '../core/fleet'
import type { MusterService } from '../core/service-types'
import { GATE_FILE, readGate, UsageScanner, UsageStore } from '../core/usage'

const FIXTURES = resolve(import.meta.dirname, '../../test/fixtures/usage')
/** The captured Claude Code session: 316 tokens. */
const SESSION = 'e0a07bda-173f-4359-b3b7-bec87203a92a'

let bin: string
let home: string
let palace: string
let service: MusterService
const stateDb = (): string => join(home, 'muster.sqlite3')

beforeAll(async () => {
  bin = builtCli()
  ;({ home, palace, service } = await hookHome())
  // the session's transcript read into the state DB, as a session hook's worker reads it
  const user = tmpDir()
  cpSync(join(FIXTURES, 'claude-projects'), join(user, '.claude', 'projects'), { recursive: true })
  const db = openStateDb(home)
  try {
    const row = await new UsageScanner(new UsageStore(db), { HOME: user }).record(
      { harness: 'claude-code', path: join(user, '.claude', 'projects', '-tmp-cap-proj', `${SESSION}.jsonl`), agent: 'mac-claude' },
      { HOME: user }
    )
    expect(row?.session_id).toBe(SESSION)
  } finally {
    db.close()
  }
  await service.call('approvals.ruleSave', { agent_pattern: 'mac-*', tool_name: 'Bash', input_pattern: 'echo budget*' })
}, 240_000)
afterAll(() => service?.close())

/** Runs the built hook for a Claude Code PreToolUse of `command` in `session`; resolves when it ends. */
function hook(command: string, session: string, args: string[] = []): Promise<Ended> {
  return startNode(
    [bin, 'approve-hook', '--home', home, '--palace', palace, '--agent', 'mac-claude', ...args],
    JSON.stringify({ session_id: session, cwd: '/work/muse', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } })
  ).done
}

const decisionOf = (out: Ended): { permissionDecision: string; permissionDecisionReason: string } =>
  JSON.parse(out.stdout).hookSpecificOutput

/** Polls `probe` every 50 ms until it returns something other than null (a minute at most). */
const until = <T>(probe: () => Promise<T | null>): Promise<T> => untilEvery(probe, 50)

/** The pending request of `command`, once the hook appended it. */
const pendingOf = (command: string) =>
  until(async () => {
    const l = await service.call('approvals.list', { hub: 'main' })
    return l.pending.find((p) => p.tool_input.command === command) ?? null
  })

describe('budget gates at the hook', () => {
  it('within budget the fast path answers; crossed, the session’s allowlisted call waits with the budget shown; raised, it runs', async () => {
    const b = await service.call('budget.set', { scope: 'session', target: SESSION, tokens: 1000 })
    expect(b.crossed).toBe(false)
    expect(readGate(stateDb())).toEqual([])
    const fast = await hook('echo budget one', SESSION)
    expect(decisionOf(fast)).toMatchObject({
      permissionDecision: 'allow',
      permissionDecisionReason: expect.stringMatching(/allowlist rule/)
    })

    // lowered below what the session used: crossed, and the gate file says so
    expect((await service.call('budget.set', { scope: 'session', target: SESSION, tokens: 300 })).crossed).toBe(true)
    expect(readGate(stateDb())).toEqual([{ id: b.id, scope: 'session', target: SESSION, since: expect.any(String) }])
    const held = hook('echo budget two', SESSION)
    const request = await pendingOf('echo budget two')
    expect(request.budget).toMatchObject({
      id: b.id,
      label: `session ${SESSION.slice(0, 12)}…: 300 tokens`,
      limit_tokens: 300,
      used_tokens: 316,
      rule_id: expect.any(Number)
    })
    expect(request.summary).toContain(`(held: over budget session ${SESSION.slice(0, 12)}…: 300 tokens)`)
    // another session is not held: its allowlisted call is answered at once (by the full hook while any budget is crossed)
    const other = await hook('echo budget elsewhere', 'another-session')
    expect(decisionOf(other).permissionDecision).toBe('allow')

    // raising the budget lets the held call run, as its rule allows
    await service.call('budget.set', { scope: 'session', target: SESSION, tokens: 100_000 })
    const out = await held
    expect(out.code, out.stderr).toBe(0)
    expect(decisionOf(out)).toMatchObject({
      permissionDecision: 'allow',
      permissionDecisionReason: expect.stringMatching(/budget #\d+ is now/)
    })
    expect(readGate(stateDb())).toEqual([])
  }, 180_000)

  it('a held call no rule allows stays for the operator when the budget is raised', async () => {
    const b = await service.call('budget.set', { scope: 'session', target: SESSION, tokens: 10 })
    const held = hook('rm -rf build', SESSION, ['--timeout-ms', '8000'])
    const request = await pendingOf('rm -rf build')
    expect(request.budget).toMatchObject({ id: b.id, rule_id: null })
    await service.call('budget.set', { scope: 'session', target: SESSION, tokens: 100_000 })
    expect(decisionOf(await held).permissionDecision).toBe('deny')
  }, 180_000)

  it('a session let go on runs its allowlisted calls again', async () => {
    const b = await service.call('budget.set', { scope: 'session', target: SESSION, tokens: 10 })
    await service.call('budget.release', { id: b.id, session_id: SESSION })
    expect(decisionOf(await hook('echo budget released', SESSION)).permissionDecision).toBe('allow')
    await service.call('budget.remove', { id: b.id })
  }, 180_000)

  it('without a gate file the fast path answers nothing; the full hook answers and writes it again', async () => {
    rmSync(join(home, GATE_FILE))
    const out = await hook('echo budget again', SESSION)
    expect(decisionOf(out).permissionDecision).toBe('allow')
    expect(existsSync(join(home, GATE_FILE))).toBe(true)
    expect(JSON.parse(readFileSync(join(home, GATE_FILE), 'utf8')).crossed).toEqual([])
  }, 180_000)
})
