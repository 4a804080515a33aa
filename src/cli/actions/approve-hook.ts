/** `muster approve-hook` through commander (the hook's own entry is faster), and `approve-hook install`. */
import { resolve } from 'node:path'
import type { Command } from 'commander'
import {
  DEFAULT_HOOK_TIMEOUT_MS,
  DEFAULT_PRE_TOOL_MATCHER,
  HARNESS_DEFAULTS,
  installHook,
  shellQuote,
  uninstallHook,
  type HarnessName
} from '../../core/approvals'
import { userHome } from '../../core/hub'
import { HookEvent, type HookEventName } from '../../shared/contract/hub-vocabulary'
import type { HookCliOptions } from '../commands/hook-flags'
import { runHookCommand } from '../approve-hook/run'
import { globals } from '../context'
import { CliError, CliExit, printJson, type CliIo } from '../output'

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
  matcher?: string
  hub?: string
  project?: string
  timeoutMs?: number
  command?: string
  uninstall?: boolean
}

/** How the harness starts this Muster: this node and this `muster` script, by absolute path. */
function defaultProgram(): string {
  return `${shellQuote(process.execPath)} ${shellQuote(resolve(process.argv[1] ?? 'muster'))}`
}

/** Adds (or removes) Muster's hook in a harness's settings. */
export async function installHookCommand(io: CliIo, own: InstallOptions, cmd: Command): Promise<void> {
  // `--agent`, `--hub`, `--project` and `--timeout-ms` are also options of `approve-hook` itself,
  // which commander hands to the parent: read both
  const o: InstallOptions = { ...(cmd.parent?.opts() as Partial<InstallOptions>), ...own }
  o.harness ??= 'claude'
  if (o.harness !== 'claude' && o.harness !== 'codex') throw new CliError(`--harness must be claude or codex, got '${o.harness}'`)
  const harness = o.harness as HarnessName
  const defaults = HARNESS_DEFAULTS[harness]
  const file = o.settings ? resolve(io.cwd, o.settings) : resolve(userHome(io.env), ...defaults.file)
  const g = globals(cmd)
  if (o.uninstall) {
    const r = uninstallHook(file)
    if (g.json) return printJson(io, r)
    io.stdout(
      r.action === 'removed'
        ? `removed Muster's ${r.event} hook from ${file}\n`
        : `Muster's hook was not installed in ${file}; nothing changed\n`
    )
    return
  }
  if (!o.agent) throw new CliError('--agent is required to install the hook (the agent id it reports, e.g. --agent mac-claude)')
  if (!/^[A-Za-z0-9._:-]{1,128}$/.test(o.agent))
    throw new CliError(`--agent must be a single token like mac-claude (machine-harness), got '${o.agent}'`)
  const events = Object.values(HookEvent) as string[]
  if (o.event && !events.includes(o.event)) throw new CliError(`--event must be ${events.join(' or ')}, got '${o.event}'`)
  const event = (o.event ?? defaults.event) as HookEventName
  if (o.hub && g.palace) throw new CliError('give --hub or --palace, not both')
  const timeoutMs = o.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS
  const words = ['approve-hook', '--agent', o.agent, '--harness', harness === 'claude' ? 'claude-code' : 'codex']
  if (g.home) words.push('--home', resolve(io.cwd, g.home))
  if (g.palace) words.push('--palace', resolve(io.cwd, g.palace))
  if (o.hub) words.push('--hub', o.hub)
  if (o.project) words.push('--project', o.project)
  if (o.timeoutMs !== undefined) words.push('--timeout-ms', String(timeoutMs))
  const command = `${o.command ?? defaultProgram()} ${words.map(shellQuote).join(' ')}`
  const matcher =
    o.matcher === '*' || o.matcher === ''
      ? undefined
      : (o.matcher ?? (event === HookEvent.preToolUse ? DEFAULT_PRE_TOOL_MATCHER : undefined))
  // the harness waits a little longer than the hook, so the hook's own timeout is the one recorded
  const r = installHook(file, { event, command, matcher, timeoutSec: Math.ceil(timeoutMs / 1000) + 30 })
  if (g.json) return printJson(io, { ...r, command })
  const what = { installed: 'installed', updated: 'updated', unchanged: 'already installed (unchanged)' }[
    r.action as 'installed' | 'updated' | 'unchanged'
  ]
  io.stdout(`${what}: Muster's ${event} hook for ${o.agent} in ${file}\n  ${command}\n`)
}
