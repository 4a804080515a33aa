/** `muster session-hook` through commander (the hook's own entry is faster), and `session-hook install`. */
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Command } from 'commander'
import { harnessNamed, installLifecycle, LIFECYCLE_CHOICES, settingsFile, uninstallLifecycle } from '../../core/approvals'
import { userHome } from '../../core/hub'
import { globals, homeOf } from '../context'
import { CliError, printJson, type CliIo } from '../output'
import { readAll } from '../approve-hook/run'
import { hookProgram, hookTarget } from './approve-hook'
import type { SessionHookOptions } from '../session-hook/args'
import { runSessionHook } from '../session-hook/run'
import { isAgentId } from '../../shared/agent-id'

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
  receipts?: boolean
}

/** Adds (or removes) Muster's lifecycle hooks in a harness's settings. */
export async function installSessionHookCommand(io: CliIo, own: InstallOptions, cmd: Command): Promise<void> {
  const o: InstallOptions = { ...(cmd.parent?.opts() as Partial<InstallOptions>), ...own }
  const harness = harnessNamed(o.harness ?? 'claude', LIFECYCLE_CHOICES, ' (the harnesses with lifecycle hooks)')
  const place = { userHome: userHome(io.env), cwd: io.cwd }
  const g = globals(cmd)
  if (o.uninstall) {
    const r = uninstallLifecycle(settingsFile(harness, place, o.settings), { home: homeOf(cmd, io), harness })
    if (g.json) return printJson(io, r)
    io.stdout(
      r.action === 'removed'
        ? `removed Muster's lifecycle hooks (${r.events.join(', ')}) from ${r.file}\n`
        : `Muster's lifecycle hooks were not installed in ${r.file}; nothing changed\n`
    )
    return
  }
  if (!o.agent || !isAgentId(o.agent))
    throw new CliError('--agent is required to install the lifecycle hooks (a single token like mac-claude)')
  const r = installLifecycle(
    {
      harness,
      settings: o.settings,
      ...hookTarget(cmd, io, o.agent, o),
      program: hookProgram(homeOf(cmd, io), o.command),
      receipts: o.receipts === true,
      markersIn: homeOf(cmd, io)
    },
    place
  )
  if (g.json) return printJson(io, { file: r.file, events: r.events, migrated_from: r.migrated_from, action: r.action, command: r.command })
  const what = { installed: 'installed', updated: 'updated', unchanged: 'already installed (unchanged)' }[
    r.action as 'installed' | 'updated' | 'unchanged'
  ]
  io.stdout(
    `${what}: Muster's lifecycle hooks (${r.events.join(', ')}) for ${o.agent} in ${r.file}\n  ${r.command}\n` +
      '  the Overview shows each session as working, waiting for input or done; the hook never blocks or fails a turn\n' +
      (o.receipts
        ? '  receipts: each answered call is recorded as ran, failed, denied or interrupted; an interrupted or ended session withdraws what it waited for\n'
        : '') +
      r.notes.map((n) => `  ${n}\n`).join('')
  )
}
