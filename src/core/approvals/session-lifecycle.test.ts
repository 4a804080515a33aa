/**
 * The lifecycle hooks read as session states, on each harness's documented payloads: Claude Code
 * (SessionStart `source`, UserPromptSubmit `prompt`, Notification `message`, Stop, SessionEnd
 * `reason`), Codex (`turn_id`, `model`), Gemini CLI docs/hooks/reference.md (BeforeAgent,
 * AfterAgent, ISO `timestamp`) and GitHub Copilot CLI's hooks reference (camelCase, `sessionId`,
 * no event name: the installed `--event`). The append lands as the compact `status` event the
 * needs-you queue folds; states written out of order fold by the hook's own time.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tmpDir } from '../../../test/helpers/tmp'
import { foldSessions } from '../../shared/contract/session-state'
import { LocalHub } from '../hub/local/local-hub'
import { createHub } from '../hub/store/schema'
import type { HookContext } from './approve-hook'
import { DecisionTrust } from './decision-trust'
import { appendSessionState } from './session-append'
import { readSessionHook } from './session-lifecycle'

const closers: (() => unknown)[] = []
afterEach(async () => {
  while (closers.length) await closers.pop()!()
})

const claude = (event: string, extra: Record<string, unknown> = {}) => ({
  session_id: 'cc-1',
  transcript_path: '/home/op/.claude/projects/muse/cc-1.jsonl',
  cwd: '/work/muse',
  permission_mode: 'default',
  hook_event_name: event,
  ...extra
})

describe('session lifecycle hooks', () => {
  it('Codex 0.171.0 as captured from the real CLI: a `codex exec` run starts, works, stops and ends as done', () => {
    const captured = (event: string): string =>
      readFileSync(join(import.meta.dirname, '../../../test/fixtures/harness-payloads/codex', `0.171.0-${event}.json`), 'utf8')
    const states = ['SessionStart', 'UserPromptSubmit', 'Stop', 'SessionEnd'].map((event) => {
      const r = readSessionHook(captured(event), { harness: 'codex' })
      return r.ok && r.state ? [r.state.harness, r.state.hook_event, r.state.state] : r
    })
    expect(states).toEqual([
      ['codex', 'SessionStart', 'waiting'],
      ['codex', 'UserPromptSubmit', 'working'],
      ['codex', 'Stop', 'waiting'],
      ['codex', 'SessionEnd', 'done']
    ])
  })

  it('Claude Code: start waits, a prompt works, a notification or the end of a turn waits, SessionEnd is done', () => {
    const read = (p: unknown, harness = 'claude') => readSessionHook(JSON.stringify(p), { harness })
    expect(read(claude('SessionStart', { source: 'startup' }))).toMatchObject({
      ok: true,
      state: { state: 'waiting', harness: 'claude-code' }
    })
    expect(read(claude('UserPromptSubmit', { prompt: 'fix it' }))).toMatchObject({
      ok: true,
      state: { session_id: 'cc-1', state: 'working', hook_event: 'UserPromptSubmit', cwd: '/work/muse' }
    })
    expect(
      read(claude('Notification', { message: 'Claude needs your permission to use Bash', notification_type: 'permission_prompt' }))
    ).toMatchObject({
      ok: true,
      state: { state: 'waiting', message: 'Claude needs your permission to use Bash' }
    })
    expect(read(claude('Stop', { stop_hook_active: false }))).toMatchObject({ ok: true, state: { state: 'waiting' } })
    expect(read(claude('SessionEnd', { reason: 'prompt_input_exit' }))).toMatchObject({
      ok: true,
      state: { state: 'done', message: 'prompt_input_exit' }
    })
    // detected without --harness too
    expect(read(claude('Stop'), '')).toMatchObject({ ok: true, state: { harness: 'claude-code' } })
  })

  it('Codex, Gemini CLI and Copilot CLI on their own events', () => {
    const codex = {
      session_id: 'cx-1',
      turn_id: 't-1',
      model: 'gpt-5.1-codex',
      cwd: '/work/dya',
      hook_event_name: 'UserPromptSubmit',
      prompt: 'go'
    }
    expect(readSessionHook(JSON.stringify(codex))).toMatchObject({ ok: true, state: { harness: 'codex', state: 'working' } })
    expect(readSessionHook(JSON.stringify({ ...codex, hook_event_name: 'Stop' }))).toMatchObject({ ok: true, state: { state: 'waiting' } })
    const gemini = {
      session_id: 'gm-1',
      transcript_path: '/home/op/.gemini/tmp/x/chats/session.json',
      cwd: '/work/atlas',
      hook_event_name: 'BeforeAgent',
      timestamp: '2026-12-05T10:00:00.000Z',
      prompt: 'deploy'
    }
    expect(readSessionHook(JSON.stringify(gemini))).toMatchObject({ ok: true, state: { harness: 'gemini', state: 'working' } })
    expect(readSessionHook(JSON.stringify({ ...gemini, hook_event_name: 'AfterAgent', prompt_response: 'Deployed.' }))).toMatchObject({
      ok: true,
      state: { state: 'waiting', message: 'Deployed.' }
    })
    expect(readSessionHook(JSON.stringify({ ...gemini, hook_event_name: 'SessionEnd', reason: 'exit' }))).toMatchObject({
      ok: true,
      state: { state: 'done' }
    })
    const copilot = { sessionId: 'cp-1', timestamp: 1764928800000, cwd: '/work/ledger', prompt: 'add tests' }
    expect(readSessionHook(JSON.stringify(copilot), { harness: 'copilot', event: 'userPromptSubmitted' })).toMatchObject({
      ok: true,
      state: { harness: 'copilot', session_id: 'cp-1', state: 'working', hook_event: 'userPromptSubmitted' }
    })
    expect(readSessionHook(JSON.stringify(copilot), { harness: 'copilot', event: 'sessionEnd' })).toMatchObject({
      ok: true,
      state: { state: 'done' }
    })
  })

  it('records nothing for input it cannot read, and says why', () => {
    expect(readSessionHook('not json')).toEqual({ ok: false, reason: 'the hook input is not JSON' })
    expect(readSessionHook('[1]')).toMatchObject({ ok: false })
    expect(readSessionHook(JSON.stringify(claude('PreToolUse')), { harness: 'claude' })).toEqual({
      ok: false,
      reason: 'PreToolUse is not a lifecycle event of claude-code'
    })
    expect(readSessionHook(JSON.stringify({ ...claude('Stop'), session_id: '' }), { harness: 'claude' })).toMatchObject({ ok: false })
    expect(readSessionHook(JSON.stringify({ sessionId: 'x', cwd: '/' }), { harness: 'copilot' })).toMatchObject({ ok: false })
    expect(readSessionHook(JSON.stringify(claude('Stop')), { harness: 'cursor' })).toMatchObject({ ok: false })
  })

  it('appends the compact status event; states that reach the hub out of order fold by the hook’s own time', async () => {
    const palace = join(tmpDir(), 'palace')
    createHub(palace).close()
    const hub = new LocalHub(palace)
    closers.push(() => hub.close())
    const ctx: HookContext = { hub, rules: null, trust: new DecisionTrust([]), operator: 'desk', projectFor: () => null, warn: () => {} }
    const at = (s: number) => new Date(Date.UTC(2026, 11, 5, 10, 0, s)).toISOString()
    const state = (event: string, s: number) => {
      const r = readSessionHook(JSON.stringify(claude(event)), { harness: 'claude' })
      if (!r.ok || !r.state) throw new Error('not a session state')
      return { ...r.state, at: at(s) }
    }
    // the Stop's worker wins the race to the hub over the prompt's
    await appendSessionState(ctx, { agent: 'mac-claude', state: state('Stop', 2) })
    const e = await appendSessionState(ctx, { agent: 'mac-claude', state: state('UserPromptSubmit', 1) })
    expect(e).toMatchObject({
      type: 'status',
      room: 'status',
      topic: 'session',
      to_agent: '*',
      stream: 'project/muse',
      from_agent: 'mac-claude'
    })
    expect(e.body).toBe('claude-code session cc-1: working')
    const folded = foldSessions((await hub.list({ type: 'status', topic: 'session', limit: 10 })).events)
    expect(folded).toEqual([expect.objectContaining({ agent: 'mac-claude', session_id: 'cc-1', state: 'waiting', since: at(2) })])
  })

  it('never creates a hub that is not there', async () => {
    const hub = new LocalHub(join(tmpDir(), 'missing'))
    closers.push(() => hub.close())
    const ctx: HookContext = { hub, rules: null, trust: new DecisionTrust([]), operator: 'desk', projectFor: () => null, warn: () => {} }
    const r = readSessionHook(JSON.stringify(claude('Stop')), { harness: 'claude' })
    if (!r.ok || !r.state) throw new Error('not a session state')
    await expect(appendSessionState(ctx, { agent: 'a', state: r.state })).rejects.toThrow()
  })
})
