/**
 * `muster connect` with the built CLI in a temporary HOME and a stand-in `claude` on PATH: the list
 * finds it with its version and nothing installed; `connect claude` makes exactly the edits
 * `approve-hook install` and `session-hook install` make (byte for byte, comments and other hooks
 * kept) and `--remove` gives the original bytes back; `--test` is refused without a hub, and with
 * one lands in the inbox marked as a test and waits for the operator's answer; with no harness on
 * PATH the list says so in one line, with what to do.
 */
import { spawn, spawnSync } from 'node:child_process'
import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { builtCli } from '../../test/helpers/built-cli'
import { tmpDir } from '../../test/helpers/tmp'
import { createHub } from '../core/hub/store/schema'
import type { ApprovalItem } from '../shared/contract/approvals-types'
import type { ConnectList, ConnectResult, ConnectTest } from '../shared/contract/connect-types'

let bin: string
beforeAll(() => {
  bin = builtCli()
})

/** A Claude settings file of the user's own: comments, another hook, odd indentation. */
const ORIGINAL = `{
    // the user's own settings
    "model": "opus",
    "hooks": {
        "PreToolUse": [
            { "matcher": "Bash", "hooks": [{ "type": "command", "command": "echo mine" }] }
        ]
    }
}
`

/** A temporary user HOME with a stand-in `claude` (prints a version) on PATH, and a CLI run in it. */
function machine() {
  const dir = tmpDir()
  const home = join(dir, 'muster')
  const user = join(dir, 'user')
  const binDir = join(dir, 'bin')
  mkdirSync(binDir, { recursive: true })
  mkdirSync(join(user, '.claude'), { recursive: true })
  const claude = join(binDir, 'claude')
  writeFileSync(claude, '#!/bin/sh\necho "2.1.332 (Claude Code)"\n')
  chmodSync(claude, 0o755)
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: user, MUSTER_HOME: '', MUSTER_NO_BACKGROUND: '1', PATH: `${binDir}:/usr/bin:/bin` }
  delete env.MEMPALACE_PALACE_PATH
  delete env.MEMPAL_PALACE_PATH
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [bin, '--home', home, ...args], { encoding: 'utf8', env, timeout: 120_000 })
  const json = <T>(...args: string[]): T => {
    const r = cli(...args, '--json')
    expect(r.status, r.stderr).toBe(0)
    return JSON.parse(r.stdout) as T
  }
  return { dir, home, user, env, cli, json, settings: join(user, '.claude', 'settings.json') }
}

describe.skipIf(process.platform === 'win32')('muster connect', () => {
  it('lists the harness found on PATH, installs gate and session hooks as the two install commands do, and removes them', () => {
    const m = machine()
    writeFileSync(m.settings, ORIGINAL)

    const before = m.json<ConnectList>('connect')
    const claude = before.harnesses.find((h) => h.name === 'claude')!
    expect(claude).toMatchObject({
      label: 'Claude Code',
      path: join(m.dir, 'bin', 'claude'),
      version: '2.1.332',
      settings: m.settings,
      gate: { installed: false, events: [] },
      session: { available: true, installed: false }
    })
    expect(before.harnesses.find((h) => h.name === 'codex')).toMatchObject({ path: null, version: null })
    expect(before.hub.exists).toBe(false)
    const table = m.cli('connect')
    expect(table.stdout).toMatch(/^HARNESS +COMMAND +VERSION +GATE +SESSION HOOKS +GATE HEALTH/)
    expect(table.stdout).toContain('not found (codex)')
    expect(table.stdout).toContain('next: muster connect claude')
    expect(table.stdout).toMatch(/hub: none yet at .*muster demo/)

    const r = m.json<ConnectResult>('connect', 'claude', '--agent', 'mac-claude')
    expect(r.gate).toMatchObject({ action: 'installed', events: ['PermissionRequest'], file: m.settings })
    expect(r.session).toMatchObject({ action: 'installed' })
    expect(r.connection).toMatchObject({ gate: { installed: true, agent: 'mac-claude' }, session: { installed: true } })
    // checked at once: the hub is missing, and says so with its fix
    expect(r.connection.health[0]).toMatchObject({ event: 'PermissionRequest', ok: false, problem: expect.stringMatching(/^no hub/) })
    const connected = readFileSync(m.settings, 'utf8')
    expect(connected).toContain("// the user's own settings")
    expect(connected).toContain('"onFailure": "block"')

    // the same edits as `approve-hook install` then `session-hook install`, on a copy of the original
    const twin = join(m.dir, 'twin.json')
    writeFileSync(twin, ORIGINAL)
    expect(m.cli('approve-hook', 'install', '--agent', 'mac-claude', '--settings', twin).status).toBe(0)
    expect(m.cli('session-hook', 'install', '--agent', 'mac-claude', '--settings', twin).status).toBe(0)
    expect(connected).toBe(readFileSync(twin, 'utf8'))

    // connecting again changes nothing and keeps the agent
    expect(m.json<ConnectResult>('connect', 'claude').gate.action).toBe('unchanged')

    const removed = m.json<ConnectResult>('connect', 'claude', '--remove')
    expect(removed.gate.action).toBe('removed')
    expect(removed.session?.action).toBe('removed')
    expect(readFileSync(m.settings, 'utf8')).toBe(ORIGINAL)
    expect(m.json<ConnectList>('connect').harnesses.find((h) => h.name === 'claude')!.gate.installed).toBe(false)
  })

  it('sends a test request marked as one, refused without a hub, and waits for the answer', async () => {
    const m = machine()
    expect(m.cli('connect', 'claude', '--agent', 'desk-claude').status).toBe(0)
    copyFileSync(m.settings, join(m.dir, 'kept.json'))

    const refused = m.cli('connect', '--test', 'claude')
    expect(refused.status).toBe(1)
    expect(refused.stderr).toMatch(/no hub at/)

    createHub(join(m.user, '.mempalace', 'palace')).close()
    const sent = m.json<ConnectTest>('connect', '--test', 'claude', '--no-wait')
    expect(sent).toMatchObject({ agent: 'desk-claude', correlation_id: expect.stringMatching(/^appr_/) })
    const inbox = m.json<{ pending: ApprovalItem[] }>('approvals', 'list')
    expect(inbox.pending).toEqual([
      expect.objectContaining({
        correlation_id: sent.correlation_id,
        agent: 'desk-claude',
        harness: 'claude-code',
        test: true,
        summary: expect.stringMatching(/^TEST: /)
      })
    ])

    // waiting for the answer: the operator approves while it waits
    const waiting = spawn(process.execPath, [bin, '--home', m.home, 'connect', '--test', 'claude'], { env: m.env })
    waiting.stderr.on('data', (d: Buffer) => (out += d))
    let out = ''
    waiting.stdout.on('data', (d: Buffer) => (out += d))
    const exited = new Promise<number | null>((r) => waiting.on('close', r))
    await expect.poll(() => out, { timeout: 60_000 }).toMatch(/sent a test request from desk-claude/)
    const id = /\((appr_[0-9a-f]+)\)/.exec(out)![1]!
    expect(m.cli('approvals', 'decide', id, 'allow').status).toBe(0)
    expect(await exited).toBe(0)
    expect(out).toMatch(/answered: approved by /)
    // a test changes no settings
    expect(readFileSync(m.settings, 'utf8')).toBe(readFileSync(join(m.dir, 'kept.json'), 'utf8'))
  }, 180_000)

  it('says in one line that no harness was found, and what to do, when none is on PATH', () => {
    const m = machine()
    // a PATH with none of the harnesses' commands (the CLI itself runs from this node)
    const empty = join(m.dir, 'empty-bin')
    mkdirSync(empty)
    const r = spawnSync(process.execPath, [bin, '--home', m.home, 'connect'], {
      encoding: 'utf8',
      env: { ...m.env, PATH: empty },
      timeout: 120_000
    })
    expect(r.status, r.stderr).toBe(0)
    const line = r.stdout.split('\n').find((l) => l.startsWith('no agent harness found on PATH'))
    expect(line).toBeDefined()
    for (const b of ['claude', 'codex', 'gemini', 'copilot', 'opencode', 'cursor-agent']) expect(line).toContain(b)
    expect(line).toMatch(/install one .*npm install -g @anthropic-ai\/claude-code.*then run `muster connect` again/)
    expect(r.stdout).not.toContain('next: muster connect')
    // with a harness found, no such line
    expect(m.cli('connect').stdout).not.toContain('no agent harness found')
  }, 180_000)
})
