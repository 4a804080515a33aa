/**
 * `muster gates --json` against gates installed by the built CLI in a temporary HOME: an untrusted
 * Codex gate (`codex exec` would skip it), a launcher whose build is gone, and a hub nobody can
 * reach are each reported with their fix; trusting the hook as Codex records it, `--repair` and
 * creating the hub make the gate healthy, and its last request shows once one came through.
 */
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { builtCli } from '../../test/helpers/built-cli'
import { tmpDir } from '../../test/helpers/tmp'
import { codexEventLabel, codexHookHash } from '../core/approvals/harnesses/codex'
import { readLauncher, writeLauncher } from '../core/approvals/gate-launcher'
import { createHub } from '../core/hub/store/schema'
import type { GateHealth, GatesReport } from '../shared/contract/gates-types'

let bin: string
beforeAll(() => {
  bin = builtCli()
})

describe.skipIf(process.platform === 'win32')('muster gates', () => {
  it('reports an untrusted Codex gate, a launcher whose build is gone and an unreachable hub, each with its fix', () => {
    const dir = tmpDir()
    const home = join(dir, 'muster')
    const palace = join(dir, 'palace')
    const env = { ...process.env, HOME: dir, MUSTER_HOME: '', CODEX_HOME: '', PATH: '/usr/bin:/bin' }
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, [bin, '--home', home, ...args], { encoding: 'utf8', env, timeout: 120_000 })
    const gates = (...args: string[]) => {
      const r = cli('gates', '--json', ...args)
      return { code: r.status, report: JSON.parse(r.stdout) as GatesReport, row: (JSON.parse(r.stdout) as GatesReport).gates[0]! }
    }
    expect(gates().report.gates).toEqual([])

    const installed = cli(
      '--palace',
      palace,
      '--json',
      'approve-hook',
      'install',
      '--harness',
      'codex',
      '--mode',
      'exec',
      '--agent',
      'win-codex'
    )
    expect(installed.status, installed.stderr).toBe(0)
    const hooks = join(dir, '.codex', 'hooks.json')
    // checked at install already: the harness would skip it, and its hub is missing
    expect((JSON.parse(installed.stdout) as { health: GateHealth[] }).health[0]).toMatchObject({ ok: false, event: 'PreToolUse' })

    let g = gates()
    expect(g.code).toBe(1)
    expect(g.report.gates).toHaveLength(1)
    expect(g.row).toMatchObject({
      harness: 'codex',
      label: 'Codex',
      file: hooks,
      event: 'PreToolUse',
      mode: 'exec',
      agent: 'win-codex',
      ok: false
    })
    expect(g.row.checks.installed.ok).toBe(true)
    expect(g.row.checks.starts).toMatchObject({ ok: true, text: 'starts (through the gate launcher)' })
    expect(g.row.checks.trust).toEqual({
      ok: false,
      text: 'untrusted: `codex exec` runs every command ungated until you trust it in the Codex TUI',
      fix: "open `codex` (the TUI), then /hooks, and trust Muster's PreToolUse hook"
    })
    expect(g.row.checks.hub).toMatchObject({
      ok: false,
      text: expect.stringMatching(new RegExp(`^no hub: no hub at ${palace}`)),
      fix: expect.stringMatching(/muster gates/)
    })
    expect(g.row.last_request).toBeNull()

    // trusted the way Codex 0.171 records it (checked against the real CLI: its trusted hook runs)
    const entry = (JSON.parse(readFileSync(hooks, 'utf8')) as { hooks: { PreToolUse: Record<string, unknown>[] } }).hooks.PreToolUse[0]!
    const hash = codexHookHash({ file: hooks, event: 'PreToolUse', group: 0, handler: 0, entry }, (t) =>
      createHash('sha256').update(t).digest('hex')
    )
    mkdirSync(join(dir, '.codex'), { recursive: true })
    appendFileSync(
      join(dir, '.codex', 'config.toml'),
      `\n[hooks.state."${hooks}:${codexEventLabel('PreToolUse')}:0:0"]\ntrusted_hash = "${hash}"\n`
    )
    expect(gates().row.checks.trust).toEqual({ ok: true, text: 'trusted by Codex', fix: null })

    // Muster moved: the launcher's build is gone, every call is blocked until it is repointed
    const real = readLauncher(home)!
    writeLauncher(home, { node: process.execPath, build: join(dir, 'moved-away', 'bin', 'muster.cjs') })
    g = gates()
    expect(g.row.checks.starts).toEqual({
      ok: false,
      text: `the launcher's build ${join(dir, 'moved-away', 'bin', 'muster.cjs')} is gone (moved or uninstalled): every call is blocked`,
      fix: 'muster gates --repair'
    })
    const repaired = cli('gates', '--repair', '--json')
    expect(repaired.stderr).toMatch(/^the gate launcher now runs .*bin\/muster\.cjs \(was .*moved-away/)
    expect(readLauncher(home)).toEqual(real)
    expect((JSON.parse(repaired.stdout) as GatesReport).gates[0]!.checks.starts.ok).toBe(true)

    // the hub created: the gate is whole, and a request through it is its last request
    createHub(palace).close()
    g = gates()
    expect(g.row.checks.hub).toMatchObject({ ok: true })
    expect(g.row).toMatchObject({ ok: true, problem: null, fix: null })
    expect(g.code).toBe(0)
    const hook = spawnSync('/bin/sh', ['-c', g.row.command!.replace(/ \|\| exit 2$/, ' --timeout-ms 500')], {
      input: JSON.stringify({
        session_id: 's',
        turn_id: 't',
        model: 'm',
        cwd: dir,
        hook_event_name: 'PreToolUse',
        tool_name: 'Bash',
        tool_input: { command: 'make deploy' }
      }),
      encoding: 'utf8',
      env
    })
    expect(JSON.parse(hook.stdout).hookSpecificOutput.permissionDecision).toBe('deny')
    expect(gates().row.last_request).toMatch(/^\d{4}-\d\d-\d\dT/)
  }, 300_000)
})
