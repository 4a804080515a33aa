/** `muster approve-hook` through commander (the hook's own entry is faster), and `approve-hook install`. */
import { resolve } from 'node:path'
import type { Command } from 'commander'
import {
  DEFAULT_HOOK_TIMEOUT_MS,
  APPROVAL_EVENTS,
  CLAUDE_ON_FAILURE_SINCE,
  compareVersions,
  DEFAULT_PRE_TOOL_MATCHER,
  FILE_BASE,
  GEMINI_MATCHER,
  HARNESS_ID,
  harnessEntry,
  INSTALL_HARNESSES,
  SETTINGS_FILE,
  type InstallHarness,
  claudeVersion,
  installedCommand,
  installHooks,
  shellQuote,
  uninstallHooks,
  installOpencodePlugin,
  opencodePluginSource,
  uninstallOpencodePlugin,
  OperatorKeys,
  trustedKeyIds
} from '../../core/approvals'
import { userHome } from '../../core/hub'
import type { HookCliOptions } from '../commands/hook-flags'
import { runHookCommand } from '../approve-hook/run'
import { globals, homeOf } from '../context'
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

/** How the harness starts this Muster: this node and this `muster` script, by absolute path. */
function defaultProgram(): string {
  return `${shellQuote(process.execPath)} ${shellQuote(resolve(process.argv[1] ?? 'muster'))}`
}

/** What reaches the operator per harness and event, as install reports it. */
const WHAT: Record<string, string> = {
  'claude:PermissionRequest': 'only the calls Claude Code would ask you about (its mode and allow rules decide first)',
  'claude:PreToolUse': 'every matching call, whatever Claude Code’s mode or allow rules (explicit choice)',
  'codex:PermissionRequest': 'interactive sessions: the calls Codex would ask you about; allow or deny',
  'codex:PreToolUse': '`codex exec`: every call waits for you; deny stops it, allow (or no answer) lets Codex go on (a deny-only gate)',
  'gemini:BeforeTool': 'shell commands, writes, edits, fetches and MCP tools',
  'copilot:permissionRequest': 'every call Copilot checks permissions for (not reads), before its own rules',
  'copilot:preToolUse': 'every tool call',
  'cursor:beforeShellExecution': 'shell commands',
  'cursor:beforeMCPExecution': 'MCP tool calls',
  'cursor:preToolUse': 'every tool call'
}

/** The approval events to install, from `--event` (comma-separated) and Codex's `--mode`. */
function eventsFor(harness: Exclude<InstallHarness, 'opencode'>, o: InstallOptions): string[] {
  const known = APPROVAL_EVENTS[harness]
  if (o.mode !== undefined && harness !== 'codex') throw new CliError('--mode is for --harness codex (interactive, exec or both)')
  if (harness === 'codex' && o.mode !== undefined) {
    const byMode: Record<string, string[]> = {
      interactive: ['PermissionRequest'],
      exec: ['PreToolUse'],
      both: ['PermissionRequest', 'PreToolUse']
    }
    const chosen = byMode[o.mode]
    if (!chosen) throw new CliError(`--mode must be interactive, exec or both, got '${o.mode}'`)
    if (o.event && o.event.split(',').some((e) => !chosen.includes(e.trim())))
      throw new CliError(
        `--mode ${o.mode} installs ${chosen.join(' and ')}; --event ${o.event} cannot work with it (Codex asks through PermissionRequest only in interactive sessions; \`codex exec\` never asks, so only the PreToolUse gate reaches it)`
      )
    return chosen
  }
  if (!o.event) return [...known.default]
  const events = o.event.split(',').map((e) => e.trim())
  for (const e of events)
    if (!known.events.includes(e)) throw new CliError(`--event for --harness ${harness} must be ${known.events.join(' or ')}, got '${e}'`)
  return events
}

/** Adds (or removes) Muster's hook in a harness's settings. */
export async function installHookCommand(io: CliIo, own: InstallOptions, cmd: Command): Promise<void> {
  // `--agent`, `--hub`, `--project`, `--harness`, `--event` and `--timeout-ms` are also options of
  // `approve-hook` itself, which commander hands to the parent: read both
  const o: InstallOptions = { ...(cmd.parent?.opts() as Partial<InstallOptions>), ...own }
  o.harness ??= 'claude'
  if (o.harness === 'claude-code') o.harness = 'claude'
  if (!(INSTALL_HARNESSES as readonly string[]).includes(o.harness))
    throw new CliError(`--harness must be ${INSTALL_HARNESSES.join(', ')}, got '${o.harness}'`)
  const harness = o.harness as InstallHarness
  const where = SETTINGS_FILE[harness]
  const file = o.settings ? resolve(io.cwd, o.settings) : resolve(where.under === 'home' ? userHome(io.env) : io.cwd, ...where.path)
  const g = globals(cmd)
  if (o.uninstall) {
    const r =
      harness === 'opencode'
        ? { file, events: [], migrated_from: [], action: uninstallOpencodePlugin(file) }
        : uninstallHooks(file, 'approve-hook')
    if (g.json) return printJson(io, r)
    io.stdout(
      r.action === 'removed'
        ? `removed Muster's ${harness === 'opencode' ? 'OpenCode plugin' : `${r.events.join(', ')} hook`} from ${file}\n`
        : `Muster's hook was not installed in ${file}; nothing changed\n`
    )
    return
  }
  if (!o.agent) throw new CliError('--agent is required to install the hook (the agent id it reports, e.g. --agent mac-claude)')
  if (!isAgentId(o.agent)) throw new CliError(`${AGENT_ID_MESSAGE}, got '${o.agent}'`)
  if (o.hub && g.palace) throw new CliError('give --hub or --palace, not both')
  const timeoutMs = o.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS
  // the harness waits a little longer than the hook, so the hook's own timeout is the one recorded
  const timeoutSec = Math.ceil(timeoutMs / 1000) + 30
  const words = ['approve-hook', '--agent', o.agent, '--harness', HARNESS_ID[harness]]
  if (g.home) words.push('--home', resolve(io.cwd, g.home))
  if (g.palace) words.push('--palace', resolve(io.cwd, g.palace))
  if (o.hub) words.push('--hub', o.hub)
  if (o.project) words.push('--project', o.project)
  if (o.timeoutMs !== undefined) words.push('--timeout-ms', String(timeoutMs))
  // the hook trusts the operator keys it is installed with (this home's, made now if missing, and
  // the ones `muster keys trust` added): a key added to the home later is not trusted silently
  const keys = new OperatorKeys(homeOf(cmd, io))
  keys.ensure()
  words.push('--operator-keys', trustedKeyIds(keys.home).join(','))
  const tail = words.map(shellQuote).join(' ')

  if (harness === 'opencode') {
    if (o.event || o.matcher || o.mode)
      throw new CliError('--event, --matcher and --mode do not apply to OpenCode (it asks through its server)')
    const command = `${o.command ?? defaultProgram()} ${tail}`
    const action = installOpencodePlugin(file, opencodePluginSource(command, timeoutSec))
    if (g.json) return printJson(io, { file, events: ['permission.asked'], migrated_from: [], action, command })
    io.stdout(
      `${action === 'unchanged' ? 'already installed (unchanged)' : action}: Muster's OpenCode plugin for ${o.agent} in ${file}\n  ${command}\n` +
        '  reaches you: every permission OpenCode asks for (its `permission` config decides which ask); answered once, always or reject\n'
    )
    return
  }

  const events = eventsFor(harness, o)
  let onFailureBlock = false
  const notes: string[] = []
  if (harness === 'claude') {
    const version = claudeVersion(o.claude ?? 'claude')
    onFailureBlock = version !== null && compareVersions(version, CLAUDE_ON_FAILURE_SINCE) >= 0
    notes.push(
      onFailureBlock
        ? `Claude Code ${version}: onFailure "block" written, so a hook that crashes blocks the call`
        : version
          ? `Claude Code ${version} predates onFailure (${CLAUDE_ON_FAILURE_SINCE}): a hook that crashes lets the call through there; update Claude Code and install again`
          : `Claude Code was not found (${o.claude ?? 'claude'} --version): onFailure not written; install again where it runs`
    )
  }
  const matcherFor = (event: string): string | undefined => {
    if (o.matcher === '*' || o.matcher === '') return undefined
    if (o.matcher) return o.matcher
    if (harness === 'claude' && event === 'PreToolUse') return DEFAULT_PRE_TOOL_MATCHER
    if (harness === 'gemini') return GEMINI_MATCHER
    return undefined
  }
  // a reinstall keeps the command line it finds when only the program path differs, so a harness
  // that trusts hooks by their hash (Codex) does not ask again
  const program = o.command ?? defaultProgram()
  const commandFor = (event: string): { command: string; kept: boolean } => {
    const own = harness === 'copilot' ? `${tail} --event ${shellQuote(event)}` : tail
    const old = o.command === undefined ? installedCommand(file, event, 'approve-hook') : null
    if (old && old.endsWith(` ${own}`)) return { command: old, kept: true }
    return { command: `${program} ${own}`, kept: false }
  }
  const planned = events.map((event) => ({ event, ...commandFor(event) }))
  const specs = planned.map((p) =>
    harnessEntry(harness, { event: p.event, command: p.command, timeoutSec, matcher: matcherFor(p.event), onFailureBlock })
  )
  const r = installHooks(file, specs, 'approve-hook', FILE_BASE[harness])
  if (harness === 'codex') {
    const changed = planned.filter((p) => !p.kept).map((p) => p.event)
    notes.push(
      r.action === 'unchanged'
        ? 'unchanged: Codex keeps trusting it'
        : changed.length
          ? `Codex asks you to trust the ${changed.join(' and ')} hook (its command is new or changed): review it once with /hooks in Codex; \`codex exec\` runs only trusted hooks`
          : 'the command line is unchanged; Codex asks again only if the entry changed otherwise (timeout, matcher)'
    )
  }
  if (g.json) return printJson(io, { ...r, command: planned[0]!.command, notes })
  const what = { installed: 'installed', updated: 'updated', unchanged: 'already installed (unchanged)' }[
    r.action as 'installed' | 'updated' | 'unchanged'
  ]
  let text = `${what}: Muster's ${events.join(' and ')} hook for ${o.agent} in ${file}\n  ${planned[0]!.command}\n`
  for (const e of events) text += `  ${e} reaches you: ${WHAT[`${harness}:${e}`] ?? 'the calls it fires for'}\n`
  if (r.migrated_from.length) text += `  migrated: Muster's older ${r.migrated_from.join(', ')} hook was removed\n`
  for (const n of notes) text += `  ${n}\n`
  io.stdout(text)
}
