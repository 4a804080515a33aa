/** `muster gates`: every installed gate's health, checked now (the CLI twin of the Overview's gates panel). */
import type { Command } from 'commander'
import { readLauncher, writeLauncher } from '../../core/approvals'
import type { GateHealth } from '../../shared/contract/gates-types'
import { GATE_CHECKS } from '../../shared/contract/gates-types'
import { globals, homeOf, withRoot } from '../context'
import { age, CliExit, printJson, table, truncate, type CliIo } from '../output'
import { buildEntry } from './approve-hook'

/** How each check reads in the table's STATE column when it fails. */
const CHECK_WORD: Record<string, string> = {
  installed: 'removed',
  starts: 'broken',
  fails_closed: 'fails open',
  trust: 'untrusted',
  hub: 'no hub'
}

/** The state of one gate in a word. */
function stateOf(g: GateHealth): string {
  if (g.ok) return 'ok'
  const failing = GATE_CHECKS.find((c) => g.checks[c].ok === false)
  return failing ? CHECK_WORD[failing]! : 'broken'
}

/** Checks every gate now and prints them; exit 1 when one would not stop a call. */
export async function gates(io: CliIo, o: { repair?: boolean }, cmd: Command): Promise<void> {
  const home = homeOf(cmd, io)
  if (o.repair) {
    const before = readLauncher(home)
    const target = { node: process.execPath, build: buildEntry() }
    const done = writeLauncher(home, target)
    io.stderr(
      done === 'unchanged'
        ? `the gate launcher already runs ${target.build}\n`
        : `the gate launcher now runs ${target.build}${before ? ` (was ${before.build})` : ''}\n`
    )
  }
  const report = await withRoot(cmd, io, async (root) => (await root.get('gates')).check())
  if (globals(cmd).json) printJson(io, report)
  else if (!report.gates.length) io.stdout('no approvals gate is installed (muster approve-hook install --harness NAME --agent ID)\n')
  else {
    const now = Date.now()
    const rows = report.gates.map((g) => [
      g.label,
      g.event,
      stateOf(g),
      g.last_request ? age(g.last_request, now) : 'never',
      truncate(g.ok ? (g.hub ?? '-') : `${g.problem}${g.fix ? ` → ${g.fix}` : ''}`, 110)
    ])
    io.stdout(table([['HARNESS', 'EVENT', 'STATE', 'LAST REQUEST', 'HUB / PROBLEM → FIX'], ...rows]))
    for (const g of report.gates) io.stdout(`  ${g.label} ${g.event}: ${g.file}\n`)
  }
  if (report.gates.some((g) => !g.ok)) throw new CliExit(1)
}
