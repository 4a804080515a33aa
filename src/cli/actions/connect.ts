/** `muster connect`: list the harnesses, connect or remove one, or send it a test request (the CLI twin of the Connect screen). */
import type { Command } from 'commander'
import type { ConnectList, ConnectResult, HarnessConnection } from '../../shared/contract/connect-types'
import type { MusterService } from '../../core/service-types'
import { globals, withService } from '../context'
import { CliError, printJson, table, truncate, type CliIo } from '../output'

/** Options of `muster connect`. */
interface ConnectOptions {
  agent?: string
  remove?: boolean
  test?: boolean
  wait?: boolean
}

/** How often a waiting `--test` looks for the answer. */
const POLL_MS = 1000

/** The gate's health in a few words: ok, its first problem and fix, or not checked. */
export function healthText(c: HarnessConnection): string {
  if (!c.gate.installed) return '-'
  if (!c.health.length) return 'not checked yet'
  const bad = c.health.find((g) => !g.ok)
  return bad ? `${bad.problem}${bad.fix ? ` → ${bad.fix}` : ''}` : 'ok'
}

/** The one line that says no harness is on PATH, and what to do. */
export function noneFoundLine(list: Pick<ConnectList, 'harnesses'>): string {
  return `no agent harness found on PATH (looked for ${list.harnesses.map((c) => c.bin).join(', ')}): install one so its command is on PATH (e.g. \`npm install -g @anthropic-ai/claude-code\`; README "Connect your agents" lists the others), then run \`muster connect\` again`
}

/** The list as a table, the hub, and the next step. */
function printList(io: CliIo, list: ConnectList): void {
  const rows = list.harnesses.map((c) => [
    c.label,
    c.path ?? `not found (${c.bin})`,
    c.version ?? '-',
    c.gate.installed ? `${c.gate.events.join(', ')}${c.gate.agent ? ` as ${c.gate.agent}` : ''}` : 'not installed',
    c.session.available ? (c.session.installed ? 'installed' : 'not installed') : 'n/a',
    truncate(healthText(c), 90)
  ])
  io.stdout(table([['HARNESS', 'COMMAND', 'VERSION', 'GATE', 'SESSION HOOKS', 'GATE HEALTH'], ...rows]))
  if (!list.harnesses.some((c) => c.path)) io.stdout(`${noneFoundLine(list)}\n`)
  const hub = list.hub
  io.stdout(
    hub.exists
      ? `hub: ${hub.name} (${hub.why}): the gates ask you through it\n`
      : `hub: none yet at ${hub.location} (${hub.why}): a gate would find nobody to ask; create one with \`muster demo\` or \`muster hubs add PALACE\`\n`
  )
  const next = list.harnesses.find((c) => c.path && !c.gate.installed)
  if (next) io.stdout(`next: muster connect ${next.name}   (installs its approvals gate and session hooks)\n`)
}

/** What an install or removal did, in words. */
function printResult(io: CliIo, r: ConnectResult, removing: boolean): void {
  const c = r.connection
  const words: Record<string, string> = {
    installed: 'installed',
    updated: 'updated',
    unchanged: 'already installed (unchanged)',
    removed: 'removed',
    absent: 'was not installed'
  }
  io.stdout(
    `${c.label}: approvals gate ${words[r.gate.action]} in ${r.gate.file}${r.gate.events.length ? ` (${r.gate.events.join(', ')})` : ''}\n`
  )
  if (r.session)
    io.stdout(`${c.label}: session hooks ${words[r.session.action]}${r.session.events.length ? ` (${r.session.events.join(', ')})` : ''}\n`)
  for (const n of r.notes) io.stdout(`  ${n}\n`)
  if (removing) return
  const bad = c.health.filter((g) => !g.ok)
  for (const g of bad) io.stdout(`  not yet a working gate: ${g.event}: ${g.problem}${g.fix ? ` (fix: ${g.fix})` : ''}\n`)
  if (!bad.length && c.health.length) io.stdout('  checked: its command starts, the harness runs it and its hub answers\n')
  if (!c.path) io.stdout(`  ${c.bin} is not on PATH: the gate is ready for when ${c.label} is installed\n`)
  io.stdout(`  try it: muster connect --test ${c.name}\n`)
}

/** Sends a test request and, unless told not to, waits for the operator's answer. */
async function test(io: CliIo, s: MusterService, harness: string, o: ConnectOptions, json: boolean): Promise<void> {
  const sent = await s.call('connect.test', { harness })
  if (!json)
    io.stdout(
      `sent a test request from ${sent.agent} to the inbox of hub ${sent.hub} (${sent.correlation_id}): approve or deny it in Muster; nothing runs either way\n`
    )
  if (o.wait === false) return json ? printJson(io, sent) : undefined
  for (;;) {
    const list = await s.call('approvals.list', { history_limit: 100 })
    const item = [...list.pending, ...list.history].find((i) => i.correlation_id === sent.correlation_id)
    if (item && item.state !== 'pending') {
      if (json) return printJson(io, { ...sent, state: item.state, decision: item.decision })
      if (item.state === 'allow' || item.state === 'deny')
        return io.stdout(
          `answered: ${item.state === 'allow' ? 'approved' : 'denied'} by ${item.decision?.decided_by ?? 'the operator'}: the inbox reaches you\n`
        )
      throw new CliError(`the test request ended ${item.state} without an answer`)
    }
    await new Promise((r) => setTimeout(r, POLL_MS))
  }
}

/** `muster connect [harness] [--agent ID] [--remove] [--test]`. */
export async function connect(io: CliIo, harness: string | undefined, o: ConnectOptions, cmd: Command): Promise<void> {
  const json = globals(cmd).json === true
  if (!harness) {
    if (o.remove || o.test || o.agent) throw new CliError('name a harness: muster connect NAME (see muster connect)')
    const list = await withService(cmd, io, async (s) => {
      await s.call('gates.check', {})
      return s.call('connect.list', {})
    })
    return json ? printJson(io, list) : printList(io, list)
  }
  if (o.test) {
    if (o.remove || o.agent) throw new CliError('--test takes no --remove or --agent')
    return withService(cmd, io, (s) => test(io, s, harness, o, json))
  }
  if (o.remove && o.agent) throw new CliError('--remove takes no --agent')
  const r = await withService(cmd, io, (s) =>
    o.remove ? s.call('connect.remove', { harness }) : s.call('connect.install', { harness, ...(o.agent ? { agent: o.agent } : {}) })
  )
  return json ? printJson(io, r) : printResult(io, r, o.remove === true)
}
