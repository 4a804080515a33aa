/**
 * `muster session-hook install` writes each harness's lifecycle events in its own shape (Copilot
 * CLI's command names its event, since its payloads do not), leaves everything else byte for byte,
 * and `--uninstall` gives the original file back; the hook itself always exits 0 and says on stderr
 * why it recorded nothing.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { builtCli } from '../../test/helpers/built-cli'
import { tmpDir } from '../../test/helpers/tmp'

let bin: string
beforeAll(() => {
  bin = builtCli()
}, 240_000)

const run = (args: string[], input = '') =>
  spawnSync(process.execPath, [bin, ...args], { input, encoding: 'utf8', env: { ...process.env, MUSTER_HOME: '' } })

describe('session-hook', () => {
  it('install: Claude Code and Copilot CLI events in their own shape; uninstall restores the bytes', () => {
    const dir = tmpDir()
    const claude = join(dir, 'settings.json')
    const original = '{\n  // mine\n  "model": "opus",\n  "hooks": { "PreToolUse": [] }\n}\n'
    writeFileSync(claude, original)
    const home = join(dir, 'home')
    expect(run(['session-hook', 'install', '--agent', 'mac-claude', '--settings', claude, '--home', home]).status).toBe(0)
    const text = readFileSync(claude, 'utf8')
    expect(text.startsWith('{\n  // mine\n  "model": "opus",')).toBe(true)
    for (const e of ['SessionStart', 'UserPromptSubmit', 'Notification', 'Stop', 'SessionEnd']) expect(text).toContain(`"${e}"`)
    expect(text).toMatch(/session-hook --agent mac-claude --harness claude --home /)
    expect(run(['session-hook', 'install', '--agent', 'mac-claude', '--settings', claude, '--home', home]).stdout).toMatch(/unchanged/)
    expect(run(['session-hook', 'install', '--uninstall', '--settings', claude]).status).toBe(0)
    expect(readFileSync(claude, 'utf8')).toBe(original)

    const copilot = join(dir, 'copilot.json')
    expect(run(['session-hook', 'install', '--harness', 'copilot', '--agent', 'gh-copilot', '--settings', copilot]).status).toBe(0)
    const c = JSON.parse(readFileSync(copilot, 'utf8')) as {
      version: number
      hooks: Record<string, { bash: string; timeoutSec: number }[]>
    }
    expect(c.version).toBe(1)
    expect(Object.keys(c.hooks)).toEqual(['sessionStart', 'userPromptSubmitted', 'agentStop', 'sessionEnd'])
    expect(c.hooks.agentStop![0]!.bash).toMatch(/session-hook --agent gh-copilot --harness copilot --event agentStop$/)
    expect(run(['session-hook', 'install', '--harness', 'cursor', '--agent', 'x', '--settings', copilot]).status).not.toBe(0)
  })

  it('the hook exits 0 whatever it is given, and says why it recorded nothing', () => {
    const bad = run(['session-hook', '--agent', 'a', '--harness', 'claude'], 'not json')
    expect(bad).toMatchObject({ status: 0, stdout: '' })
    expect(bad.stderr).toMatch(/^muster session-hook: nothing recorded: the hook input is not JSON/)
    const noAgent = run(['session-hook'], '{}')
    expect(noAgent).toMatchObject({ status: 0, stdout: '' })
    expect(noAgent.stderr).toMatch(/--agent is required/)
  })
})
