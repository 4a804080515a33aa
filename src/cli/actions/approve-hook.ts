/** `muster approve-hook` through commander (the hook's own entry is faster), and `approve-hook install`. */
import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Command } from 'commander'
import {
  harnessNamed,
  harnessVersion,
  installGate,
  settingsFile,
  shellQuote,
  uninstallGate,
  OperatorKeys,
  trustedKeyIds,
  type HookProgram,
  type HookTarget
} from '../../core/approvals'
import { userHome } from '../../core/hub'
import type { HookCliOptions } from '../commands/hook-flags'
import { runHookCommand } from '../approve-hook/run'
import { globals, homeOf, withRoot } from '../context'
import { CliError, CliExit, printJson, type CliIo } from '../output'
import { AGENT_ID_MESSAGE, isAgentId } from '../../shared/agent-id'

/** Runs one hook call. */
export async function approveHook(io: CliIo, o: HookCliOptions, cmd: Command): Promise<void> {
  const g = globals(cmd)
  const code = await runHookCommand(io, { ...o, home: g.home, palace: g.palace })
  if (code !== 0) throw new CliExit(code)
}

/** Options of `approve-hook install`. */
interface InstallOptions {
  agent?: string
  harness?: string
  settings?: string
  event?: string
  mode?: string
  matcher?: string
  hub?: string
  project?: string
  timeoutMs?: number
  command?: string
  claude?: string
  uninstall?: boolean
}

/** This build's entry (`bin/muster.cjs`), found from this module's folder (out/cli, or src/cli/actions in tests). */
export function buildEntry(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ;) {
    const entry = join(dir, 'bin', 'muster.cjs')
    if (existsSync(entry)) return entry
    const up = dirname(dir)
    if (up === dir) return resolve(process.argv[1] ?? 'muster')
    dir = up
  }
}

/**
 * How the harness starts Muster: `--command` as given, else the gate launcher in this home,
 * pointing at this node and this build (on Windows, which runs no `#!` file: this node and this
 * build by absolute path).
 */
export function hookProgram(home: string, command: string | undefined): HookProgram {
  if (command !== undefined) return { command }
  if (process.platform === 'win32') return { command: `${shellQuote(process.execPath)} ${shellQuote(buildEntry())}` }
  return { launcher: { home, target: { node: process.execPath, build: buildEntry() } } }
}

/** `--home` for the installed command: as given, or the home `MUSTER_HOME` names at install. */
export function installedHome(cmd: Command, io: CliIo): string | undefined {
  const given = globals(cmd).home
  return given || io.env.MUSTER_HOME ? homeOf(cmd, io) : undefined
}

/** What an installed hook command names besides the program: `agent`, `--home`, the hub or palace, the project. */
export function hookTarget(cmd: Command, io: CliIo, agent: string, o: { hub?: string; project?: string }): HookTarget {
  const palace = globals(cmd).palace
  return { agent, home: installedHome(cmd, io), palace: palace ? resolve(io.cwd, palace) : undefined, hub: o.hub, project: o.project }
}

/** Adds (or removes) Muster's hook in a harness's settings. */
export async function installHookCommand(io: CliIo, own: InstallOptions, cmd: Command): Promise<void> {
  // `--agent`, `--hub`, `--project`, `--harness`, `--event` and `--timeout-ms` are also options of
  // `approve-hook` itself, which commander hands to the parent: read both
  const o: InstallOptions = { ...(cmd.parent?.opts() as Partial<InstallOptions>), ...own }
  const harness = harnessNamed(o.harness ?? 'claude')
  const place = { userHome: userHome(io.env), cwd: io.cwd }
  const g = globals(cmd)
  if (o.uninstall) {
    const r = uninstallGate(harness, settingsFile(harness, place, o.settings), homeOf(cmd, io))
    if (g.json) return printJson(io, r)
    io.stdout(
      r.action === 'removed'
        ? `removed Muster's ${harness.gate.plugin ? `${harness.label} plugin` : `${r.events.join(', ')} hook`} from ${r.file}\n`
        : `Muster's hook was not installed in ${r.file}; nothing changed\n`
    )
    return
  }
  if (!o.agent) throw new CliError('--agent is required to install the hook (the agent id it reports, e.g. --agent mac-claude)')
  if (!isAgentId(o.agent)) throw new CliError(`${AGENT_ID_MESSAGE}, got '${o.agent}'`)
  // the hook trusts the operator keys it is installed with (this home's, made now if missing, and
  // the ones `muster keys trust` added): a key added to the home later is not trusted silently
  const keys = new OperatorKeys(homeOf(cmd, io))
  keys.ensure()
  const r = installGate(
    {
      harness,
      settings: o.settings,
      ...hookTarget(cmd, io, o.agent, o),
      event: o.event,
      mode: o.mode,
      matcher: o.matcher,
      timeoutMs: o.timeoutMs,
      program: hookProgram(keys.home, o.command),
      operatorKeys: trustedKeyIds(keys.home),
      version: harness.versions.failClosedSince ? harnessVersion(harness, o.claude) : null,
      recordIn: keys.home
    },
    place
  )
  // checked at once, as the harness would run it: its command starts, Codex trusts it, its hub answers
  const health = await withRoot(cmd, io, async (root) => (await root.get('gates')).checkFile(r.file))
  const problems = health.filter((g) => !g.ok).map((g) => `${g.event}: ${g.problem}${g.fix ? ` (fix: ${g.fix})` : ''}`)
  if (g.json) {
    const { what: _what, ...rest } = r
    const out = harness.gate.plugin ? { file: r.file, events: r.events, migrated_from: [], action: r.action, command: r.command } : rest
    return printJson(io, { ...out, health })
  }
  const what = { installed: 'installed', updated: 'updated', unchanged: 'already installed (unchanged)' }[
    r.action as 'installed' | 'updated' | 'unchanged'
  ]
  const name = harness.gate.plugin ? `${harness.label} plugin` : `${r.events.join(' and ')} hook`
  let text = `${what}: Muster's ${name} for ${o.agent} in ${r.file}\n  ${r.command}\n`
  for (const [e, w] of Object.entries(r.what)) text += harness.gate.plugin ? `  reaches you: ${w}\n` : `  ${e} reaches you: ${w}\n`
  if (r.migrated_from.length) text += `  migrated: Muster's older ${r.migrated_from.join(', ')} hook was removed\n`
  for (const n of r.notes) text += `  ${n}\n`
  for (const p of problems) text += `  not yet a working gate: ${p}\n`
  if (!problems.length) text += '  checked: its command starts, the harness runs it and its hub answers (muster gates)\n'
  io.stdout(text)
}
