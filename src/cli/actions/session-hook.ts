/** `muster session-hook` through commander (the hook's own entry is faster), and `session-hook install`. */
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Command } from 'commander'
import {
  FILE_BASE,
  harnessEntry,
  installHooks,
  SESSION_HOOK_EVENTS,
  SETTINGS_FILE,
  shellQuote,
  uninstallHooks,
  type SessionHarness
} from '../../core/approvals'
import { userHome } from '../../core/hub'
import { globals } from '../context'
import { CliError, printJson, type CliIo } from '../output'
import { readAll } from '../approve-hook/run'
import type { SessionHookOptions } from '../session-hook/args'
import { runSessionHook } from '../session-hook/run'
import { isAgentId } from '../../shared/agent-id'

/** The lifecycle hook's own timeout in the harness (it returns in milliseconds; this only bounds a stuck start). */
const SESSION_HOOK_TIMEOUT_SEC = 10

/** Runs one lifecycle hook call in this process (the worker sits beside this chunk in out/cli). */
export async function sessionHook(io: CliIo, o: SessionHookOptions, cmd: Command): Promise<void> {
  const g = globals(cmd)
  let input = ''
  try {
    input = Buffer.from(await (io.readStdin ?? (() => readAll(process.stdin)))()).toString('utf8')
  } catch {
    input = ''
  }
  const worker = join(dirname(fileURLToPath(import.meta.url)), 'session-worker.mjs')
  const why = runSessionHook({ ...o, home: g.home, palace: g.palace }, input, io.cwd, worker)
  if (why) io.stderr(`${why}\n`)
}

interface InstallOptions {
  agent?: string
  harness?: string
  settings?: string
  hub?: string
  project?: string
  command?: string
  uninstall?: boolean
}

/** Adds (or removes) Muster's lifecycle hooks in a harness's settings. */
export async function installSessionHookCommand(io: CliIo, own: InstallOptions, cmd: Command): Promise<void> {
  const o: InstallOptions = { ...(cmd.parent?.opts() as Partial<InstallOptions>), ...own }
  const name = o.harness === 'claude-code' || o.harness === undefined ? 'claude' : o.harness
  if (!(name in SESSION_HOOK_EVENTS))
    throw new CliError(
      `--harness must be ${Object.keys(SESSION_HOOK_EVENTS).join(', ')} (the harnesses with lifecycle hooks), got '${name}'`
    )
  const harness = name as SessionHarness
  const where = SETTINGS_FILE[harness]
  const file = o.settings ? resolve(io.cwd, o.settings) : resolve(where.under === 'home' ? userHome(io.env) : io.cwd, ...where.path)
  const g = globals(cmd)
  if (o.uninstall) {
    const r = uninstallHooks(file, 'session-hook')
    if (g.json) return printJson(io, r)
    io.stdout(
      r.action === 'removed'
        ? `removed Muster's lifecycle hooks (${r.events.join(', ')}) from ${file}\n`
        : `Muster's lifecycle hooks were not installed in ${file}; nothing changed\n`
    )
    return
  }
  if (!o.agent || !isAgentId(o.agent))
    throw new CliError('--agent is required to install the lifecycle hooks (a single token like mac-claude)')
  if (o.hub && g.palace) throw new CliError('give --hub or --palace, not both')
  const words = ['session-hook', '--agent', o.agent, '--harness', harness]
  if (g.home) words.push('--home', resolve(io.cwd, g.home))
  if (g.palace) words.push('--palace', resolve(io.cwd, g.palace))
  if (o.hub) words.push('--hub', o.hub)
  if (o.project) words.push('--project', o.project)
  const program = o.command ?? `${shellQuote(process.execPath)} ${shellQuote(resolve(process.argv[1] ?? 'muster'))}`
  const base = `${program} ${words.map(shellQuote).join(' ')}`
  const events = Object.keys(SESSION_HOOK_EVENTS[harness])
  const specs = events.map((event) =>
    harnessEntry(harness, {
      event,
      command: harness === 'copilot' ? `${base} --event ${shellQuote(event)}` : base,
      timeoutSec: SESSION_HOOK_TIMEOUT_SEC
    })
  )
  const r = installHooks(file, specs, 'session-hook', FILE_BASE[harness])
  if (g.json) return printJson(io, { ...r, command: base })
  const what = { installed: 'installed', updated: 'updated', unchanged: 'already installed (unchanged)' }[
    r.action as 'installed' | 'updated' | 'unchanged'
  ]
  io.stdout(
    `${what}: Muster's lifecycle hooks (${events.join(', ')}) for ${o.agent} in ${file}\n  ${base}\n` +
      '  the Overview shows each session as working, waiting for input or done; the hook never blocks or fails a turn\n' +
      (harness === 'codex' ? '  Codex asks you to trust new or changed hooks once (/hooks)\n' : '')
  )
}
