/**
 * Receipts through the real processes: `muster approve-hook` delivers an allow the operator gave,
 * then `muster session-hook` (installed with `--receipts`) gets Claude Code's PostToolUse for that
 * call and its worker records `ran` in the request's thread, once, however often the event comes.
 * A receipt event with no marker waiting exits at once, printing nothing.
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useBuiltHookHome } from '../../test/helpers/built-hook-home'
import { until as untilEvery } from '../../test/helpers/child-run'
import { tmpDir } from '../../test/helpers/tmp'
import type { HubEventEnvelope } from '../shared/api'
import type { MusterService } from '../core/service-types'

const FIXTURES = join(import.meta.dirname, '..', '..', 'test', 'fixtures', 'harness-payloads', 'claude-code', 'sdk-0.3.337')
const fixture = (name: string) => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as Record<string, unknown>

let bin: string, home: string, palace: string, service: MusterService
useBuiltHookHome((made) => ({ bin, home, palace, service } = made), 'desk-muster')

const env = { ...process.env, MUSTER_HOME: '' }
const sessionHook = (payload: unknown) =>
  spawnSync(process.execPath, [bin, 'session-hook', '--home', home, '--palace', palace, '--agent', 'mac-claude', '--harness', 'claude'], {
    input: JSON.stringify(payload),
    encoding: 'utf8',
    env
  })

const thread = async (corr: string): Promise<HubEventEnvelope[]> =>
  (await service.call('hub.list', { hub: 'main', correlation_id: corr, order: 'asc', limit: 50 })).events

/** Polls `probe` every 50 ms until it returns something other than null (a minute at most). */
const until = <T>(probe: () => Promise<T | null>): Promise<T> => untilEvery(probe, 50)

describe('receipts through the real hooks', () => {
  it('an allow delivered by approve-hook, then PostToolUse: one `ran` receipt, even when the event comes twice', async () => {
    const settings = join(tmpDir(), 'settings.json')
    const installed = spawnSync(
      process.execPath,
      [bin, 'session-hook', 'install', '--home', home, '--agent', 'mac-claude', '--settings', settings, '--receipts'],
      { encoding: 'utf8', env }
    )
    expect(installed.status, installed.stderr).toBe(0)
    const hooks = JSON.parse(readFileSync(settings, 'utf8')).hooks as Record<string, unknown>
    expect(Object.keys(hooks)).toEqual(
      expect.arrayContaining(['SessionEnd', 'Interrupt', 'PostToolUse', 'PostToolUseFailure', 'PermissionDenied'])
    )
    expect(existsSync(join(home, 'receipts', 'claude-code'))).toBe(true)

    const post = fixture('post-tool-use.json')
    const ask = { ...post, hook_event_name: 'PermissionRequest' }
    delete (ask as Record<string, unknown>).tool_response
    const proc = spawn(process.execPath, [bin, 'approve-hook', '--home', home, '--palace', palace, '--agent', 'mac-claude'], {
      env,
      stdio: ['pipe', 'pipe', 'pipe']
    })
    let stdout = ''
    proc.stdout.on('data', (d: Buffer) => (stdout += d))
    proc.stdin.end(JSON.stringify(ask))
    const ended = new Promise<number | null>((res) => proc.on('close', res))
    const item = await until(async () => (await service.call('approvals.list', { hub: 'main' })).pending[0] ?? null)
    expect(item.stage).toBe('asked')
    await service.call('approvals.decide', { hub: 'main', id: item.correlation_id, decision: 'allow' })
    expect(await ended).toBe(0)
    expect(JSON.parse(stdout).hookSpecificOutput.decision.behavior).toBe('allow')

    // the tool ran: Claude Code's PostToolUse for that call, twice
    for (let i = 0; i < 2; i++) expect(sessionHook(post)).toMatchObject({ status: 0, stdout: '', stderr: '' })
    const receipts = await until(async () => {
      const r = (await thread(item.correlation_id)).filter((e) => e.type === 'approval.receipt')
      return r.some((e) => e.metadata.stage === 'ran') ? r : null
    })
    // a moment for a second worker, had there been one
    await new Promise((r) => setTimeout(r, 1500))
    const again = (await thread(item.correlation_id)).filter((e) => e.type === 'approval.receipt')
    expect(again.map((e) => e.metadata.stage)).toEqual(['delivered', 'ran'])
    expect(receipts.find((e) => e.metadata.stage === 'ran')!.metadata).toMatchObject({ hook_event: 'PostToolUse' })
    const listed = (await service.call('approvals.list', { hub: 'main' })).history.find((h) => h.correlation_id === item.correlation_id)
    expect(listed).toMatchObject({ state: 'allow', stage: 'done', outcome: 'ran' })
    // the marker is settled: the session's folder is gone
    expect(existsSync(join(home, 'receipts', 'claude-code', String(post.session_id)))).toBe(false)
  }, 180_000)

  it('a receipt event with no marker waiting exits 0 at once, printing nothing', () => {
    const r = sessionHook({ ...fixture('post-tool-use.json'), session_id: 'no-such-session' })
    expect(r).toMatchObject({ status: 0, stdout: '', stderr: '' })
  })
})
