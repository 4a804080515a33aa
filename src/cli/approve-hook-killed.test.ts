/**
 * A harness killed outright (SIGKILL) while its hook waits, in separate processes as in real use:
 * a stand-in harness process starts the real `muster approve-hook` through `sh -c` (as Claude Code
 * and Codex run hook commands) and is then killed. The hook notices its harness is gone, records
 * the request as abandoned and exits; the inbox drops it; the operator's later decision is refused
 * ("no agent is waiting") and nothing more is appended.
 */
import { spawn } from 'node:child_process'
import { symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { MusterService } from '../core/service-types'
import { useBuiltHookHome } from '../../test/helpers/built-hook-home'
import { tmpDir } from '../../test/helpers/tmp'

let bin: string, home: string, palace: string, service: MusterService
useBuiltHookHome((made) => ({ bin, home, palace, service } = made), 'desk-muster')

const q = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`

/**
 * Starts a stand-in harness (running as `program`) that runs `hookCommand` through `sh -c` with a
 * Claude Code PermissionRequest payload, waits for its request in the inbox, SIGKILLs the harness
 * and returns the request once it is recorded as abandoned.
 */
async function killWhileWaiting(agent: string, hookCommand: string, program = process.execPath) {
  const payload = JSON.stringify({
    session_id: `killed-${agent}`,
    transcript_path: `/home/op/.claude/projects/x/killed-${agent}.jsonl`,
    cwd: '/work/muse',
    permission_mode: 'default',
    hook_event_name: 'PermissionRequest',
    tool_name: 'Bash',
    tool_input: { command: 'rm -rf dist', description: 'clean' }
  })
  // the stand-in harness: runs the hook command through a shell, feeds it the payload, and waits
  const harnessScript = `
    const { spawn } = require('node:child_process')
    const hook = spawn('/bin/sh', ['-c', ${JSON.stringify(hookCommand)}], { stdio: ['pipe', 'pipe', 'inherit'] })
    hook.stdin.end(${JSON.stringify(payload)})
    hook.stdout.resume()
    setInterval(() => {}, 1000)
  `
  const harness = spawn(program, ['-e', harnessScript], { stdio: 'ignore', env: { ...process.env, MUSTER_HOME: '' } })
  const list = () => service.call('approvals.list', { hub: 'main' })
  const pendingItem = async () => (await list()).pending.find((p) => p.agent === agent)
  await expect.poll(pendingItem, { timeout: 30_000, interval: 50 }).toBeTruthy()
  const item = (await pendingItem())!
  harness.kill('SIGKILL')
  const killedAt = Date.now()
  await expect
    .poll(async () => (await list()).history.find((h) => h.id === item.id)?.state, { timeout: 20_000, interval: 50 })
    .toBe('abandoned')
  // how long it took (the issue asks for 2 s; the figure is reported, not asserted, on a shared machine)
  console.log(`abandoned ${Date.now() - killedAt} ms after SIGKILL of the harness`)
  return { item, list }
}

const hookCommandFor = (agent: string): string =>
  [process.execPath, bin, 'approve-hook', '--home', home, '--palace', palace, '--agent', agent].map(q).join(' ')

describe('a harness killed while its hook waits', () => {
  it('the request is recorded as abandoned and leaves the inbox; a late decision is refused', async () => {
    const { item, list } = await killWhileWaiting('killed-claude', hookCommandFor('killed-claude'))
    const decided = (await list()).history.find((h) => h.id === item.id)!
    expect(decided.decision).toMatchObject({
      decision: 'timeout',
      decided_by: 'abandoned',
      reason: expect.stringMatching(/harness went away/)
    })
    expect((await list()).pending.some((p) => p.id === item.id)).toBe(false)

    const before = (await service.call('hub.list', { hub: 'main', correlation_id: item.correlation_id, limit: 50 })).events.length
    await expect(service.call('approvals.decide', { hub: 'main', id: item.id, decision: 'allow' })).rejects.toThrow(
      /no agent is waiting for .*its harness went away before a decision; your decision was not recorded/
    )
    expect((await service.call('hub.list', { hub: 'main', correlation_id: item.correlation_id, limit: 50 })).events).toHaveLength(before)
  }, 120_000)

  it('behind a wrapper script between the shell and the hook, the harness killed is still noticed', async () => {
    // the harness runs as `claude` (a link to node), as the real one's process is named; the hook
    // command names the operator's wrapper script, which runs Muster as a child of its own
    const dir = tmpDir()
    const claude = join(dir, 'claude')
    symlinkSync(process.execPath, claude)
    const wrapper = join(dir, 'muster-wrapper')
    writeFileSync(wrapper, `#!/bin/sh\n${hookCommandFor('wrapped-claude')}\nexit $?\n`, { mode: 0o755 })
    const { item, list } = await killWhileWaiting('wrapped-claude', q(wrapper), claude)
    expect((await list()).pending.some((p) => p.id === item.id)).toBe(false)
    await expect(service.call('approvals.decide', { hub: 'main', id: item.id, decision: 'allow' })).rejects.toThrow(/no agent is waiting/)
  }, 120_000)
})
