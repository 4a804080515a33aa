/**
 * `muster status` at work: the overview's project cards as text or JSON. Agents' hooks run it on
 * every tool call, so most calls never get here: the status entry (`src/cli/status-main.ts`)
 * answers when the snapshot holds every card. Here every call is answered: kept cards from the
 * snapshot, the other projects read by the core's `fleetStatusAt` (the very function behind the
 * service's `fleet.status`, through the parse cache) without building the service, which would load
 * the contract's zod schemas, the hub and the watcher. A card read between two equal, settled
 * stamps is kept for the next run.
 */
import type { Command } from 'commander'
import type { ProjectStatus } from '../../shared/api'
import { fleetStatusAt, projectStampsNow, sameProjectStamps, settledAt } from '../../core/fleet'
import { globals, homeOf } from '../context'
import type { CliIo } from '../output'
import { printNeedsLine, readNeedsSummary } from '../status-needs'
import { lookUpSnapshot, printCards, renderBody, type Card, type StatusOptions } from '../status-cards'

/** Prints every project's status (or `--project`'s). */
export async function status(io: CliIo, opts: { project?: string }, cmd: Command): Promise<void> {
  await printFleetStatus(io, homeOf(cmd, io), { project: opts.project, json: globals(cmd).json ?? false })
}

/** `muster status` for Muster's home `home`. */
export async function printFleetStatus(io: CliIo, home: string, opts: StatusOptions): Promise<void> {
  const found = lookUpSnapshot(home, opts)
  // no state DB yet, or no such project: the full read creates the DB or reports the name
  if (!found) {
    return printAnswer(io, home, await fleetStatusAt(home, opts.project), opts)
  }
  const { snapshot, projects } = found
  const cards: Card[] = found.cards.map((c) => c as Card)
  const misses = projects.flatMap((p, i) => (found.cards[i] ? [] : [i]))
  if (misses.length) {
    // a card is kept only when the project's stamps, settled, were the same before and after the read
    const before = misses.map((i) => projectStampsNow(projects[i]!.path))
    const read = await fleetStatusAt(
      home,
      misses.map((i) => projects[i]!.name)
    )
    misses.forEach((i, k) => {
      const status: ProjectStatus = (cards[i] = read[k]!)
      const stamps = before[k]
      const after = stamps && settledAt(stamps, found.startedAt) ? projectStampsNow(status.path) : null
      if (stamps && after && sameProjectStamps(stamps, after)) snapshot.keep(status, stamps, renderBody(status))
    })
  }
  if (opts.project === undefined) snapshot.retain(projects)
  snapshot.save()
  printAnswer(io, home, cards, opts)
}

/** Prints the cards; a whole-fleet answer adds the needs-you summary (a line, or `needs` in JSON). */
function printAnswer(io: CliIo, home: string, cards: Card[], opts: StatusOptions): void {
  const fleet = opts.project === undefined
  printCards(io, cards, opts.json, opts.json && fleet ? readNeedsSummary(home) : undefined)
  if (!opts.json && fleet) printNeedsLine(io, home)
}
