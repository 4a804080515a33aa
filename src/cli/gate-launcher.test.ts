/**
 * The gate launcher as the harnesses run it: installed by the built CLI, named by the harness
 * settings, started through `sh -c` with the hook JSON on stdin. A build that is gone, cannot
 * load, is too old, crashes or exits 1 answers "blocked" in each harness's own format (a lifecycle
 * hook exits 0); a reinstall from another build rewrites only the launcher, never the settings.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync, realpathSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { builtCli } from '../../test/helpers/built-cli'
import { tmpDir } from '../../test/helpers/tmp'
import { launcherPath, readLauncher, writeLauncher } from '../core/approvals/gate-launcher'

let bin: string
beforeAll(() => {
  bin = builtCli()
})

const claude = { session_id: 's', cwd: '/w', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'make deploy' } }
const codexExec = {
  session_id: 's',
  turn_id: 't',
  model: 'gpt-5.1-codex',
  cwd: '/w',
  hook_event_name: 'PreToolUse',
  permission_mode: 'bypassPermissions',
  tool_name: 'Bash',
  tool_input: { command: 'make deploy' }
}
const gemini = {
  session_id: 's',
  cwd: '/w',
  hook_event_name: 'BeforeTool',
  tool_name: 'run_shell_command',
  tool_input: { command: 'make deploy' }
}
const copilot = { hookName: 'permissionRequest', sessionId: 's', cwd: '/w', toolName: 'bash', toolInput: { command: 'make deploy' } }
const opencode = { type: 'permission.asked', properties: { id: 'per_1', sessionID: 's', permission: 'bash', patterns: ['make deploy'] } }

const codexGateArgs = ['--agent', 'win-codex', '--harness', 'codex', '--mode', 'both']

/** Runs an installed command line as a harness does: through a shell, the payload on stdin. */
function runCommand(command: string, input: unknown, env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync('/bin/sh', ['-c', command], {
    input: JSON.stringify(input),
    encoding: 'utf8',
    env: { ...process.env, MUSTER_HOME: '', ...env },
    timeout: 60_000
  })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}

/** The built CLI with HOME set to `dir`. */
function cli(dir: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    env: { ...process.env, HOME: dir, MUSTER_HOME: '' },
    timeout: 60_000
  })
  expect(r.status, r.stderr).toBe(0)
  return r.stdout
}

describe.skipIf(process.platform === 'win32')('the gate launcher', () => {
  it('install names the launcher in the home; a reinstall from another build rewrites only the launcher, never the settings', () => {
    const dir = tmpDir()
    const home = join(dir, 'muster')
    const settings = join(dir, 'hooks.json')
    const missing = join(dir, 'no-palace')
    /** The built CLI installs win-codex's Codex gate (both modes) into `settings`, its hub a palace that is not there. */
    const install = () =>
      JSON.parse(
        cli(dir, '--home', home, '--palace', missing, '--json', 'approve-hook', 'install', ...codexGateArgs, '--settings', settings)
      )
    const first = install()
    const launcher = launcherPath(home)
    expect(first.command.startsWith(`${launcher} approve-hook --agent win-codex --harness codex --home ${home} --palace ${missing}`)).toBe(
      true
    )
    expect(readLauncher(home)).toEqual({ node: process.execPath, build: realpathSync(bin) })
    const text = readFileSync(settings, 'utf8')

    // `codex exec`'s deny-only gate with no hub to ask: denied with the reason and the fix (never "go on")
    const exec = runCommand(first.command, codexExec)
    expect(exec.code).toBe(0)
    expect(JSON.parse(exec.stdout).hookSpecificOutput).toMatchObject({
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: expect.stringMatching(
        /^Muster could not reach the hub \(.*\), so nobody could approve this call: it is denied\. Fix: `muster gates`/
      )
    })
    // interactive Codex asks the person instead: nothing printed
    expect(runCommand(first.command, { ...codexExec, hook_event_name: 'PermissionRequest' })).toMatchObject({ code: 0, stdout: '' })

    // Muster moved: the launcher points elsewhere until a Muster install (or `muster gates`) points it back
    writeLauncher(home, { node: process.execPath, build: join(dir, 'old-place', 'bin', 'muster.cjs') })
    const again = install()
    expect(again.action).toBe('unchanged')
    expect(again.notes).toEqual(['unchanged: Codex keeps trusting it'])
    expect(readFileSync(settings, 'utf8')).toBe(text)
    expect(readLauncher(home)!.build).toBe(realpathSync(bin))
  })

  it('a build that is gone, cannot load, is too old, exits 1 or crashes: blocked in each harness’s own format; a lifecycle hook exits 0', () => {
    const dir = tmpDir()
    const home = join(dir, 'muster')
    const hook = (harness: string, event = '') =>
      `${launcherPath(home)} approve-hook --agent a1 --harness ${harness}${event ? ` --event ${event}` : ''}`
    const builds: [string, string, RegExp][] = [
      ['gone', '', /Muster's build at .*gone\/bin\/muster\.cjs is gone \(moved or uninstalled\); run `muster gates`/],
      ['broken', "throw new Error('half-written upgrade')", /cannot start \(half-written upgrade\)/],
      ['old', 'module.exports = {}', /is too old for this gate/],
      ['exits', 'module.exports = { main() { process.exit(1) } }', /Muster ended with exit code 1/],
      ['crashes', "module.exports = { main() { setTimeout(() => { throw new Error('boom') }) } }", /Muster crashed \(boom\)/],
      [
        'faults',
        "module.exports = { main(args, gate) { gate.fault('the CLI is not built yet') } }",
        /the CLI is not built yet; run `muster gates`/
      ]
    ]
    for (const [name, source, why] of builds) {
      const build = join(dir, name, 'bin', 'muster.cjs')
      if (source) writeFileSync(join(dir, `${name}.cjs`), source)
      writeLauncher(home, { node: process.execPath, build: source ? join(dir, `${name}.cjs`) : build })
      const c = runCommand(hook('claude-code'), claude)
      expect(c.code, name).toBe(2)
      expect(c.stderr, name).toMatch(why)
      expect(c.stderr, name).toMatch(/; the call is blocked\n$/)
      expect(runCommand(hook('codex'), codexExec).code, name).toBe(2)
      expect(runCommand(hook('gemini'), gemini).code, name).toBe(2)
      const cp = runCommand(hook('copilot', 'permissionRequest'), copilot)
      expect(JSON.parse(cp.stdout), name).toEqual({ behavior: 'deny', message: expect.stringMatching(why) })
      const pre = runCommand(hook('copilot', 'preToolUse'), copilot)
      expect(JSON.parse(pre.stdout), name).toEqual({ permissionDecision: 'deny', permissionDecisionReason: expect.stringMatching(why) })
      const oc = runCommand(hook('opencode'), opencode)
      expect(JSON.parse(oc.stdout), name).toEqual({ reply: 'reject', message: expect.stringMatching(why) })
      const life = runCommand(`${launcherPath(home)} session-hook --agent a1 --harness claude`, { ...claude, hook_event_name: 'Stop' })
      expect(life, name).toMatchObject({ code: 0, stdout: '' })
      expect(life.stderr, name).toMatch(/^muster session-hook: nothing recorded: /)
    }
  })
})
