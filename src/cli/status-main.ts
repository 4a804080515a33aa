/**
 * The entry of `muster status` (bundled alone, as CommonJS, into `out/cli/status.cjs`;
 * `bin/muster.cjs` asks it first when the command is `status`). Agents' hooks run it on every tool
 * call, so a plain call (the global options and `--project`) whose every card the status snapshot
 * holds is printed from there, loading neither commander, the ES module loader, the parse cache nor
 * the parser. Anything else (help, a typo, a changed project, a failure) is left whole to the CLI,
 * which reads what changed, keeps it for the next run, and answers help and errors as always.
 * Nothing is printed unless the whole answer is here, so a call left to the CLI prints once.
 */
import { defaultCliHome, resolveHome } from '../core/fleet'
import { parseStatusArgv } from './commands/status'
import { directStdoutIo, type CliIo } from './output'
import { lookUpSnapshot, printCards, type Card } from './status-cards'
import { printNeedsLine, readNeedsSummary } from './status-needs'

/** Prints `muster status` for `argv` (the words after `muster`) from the snapshot and says true, or prints nothing and says false. */
export function answerFromSnapshot(argv: readonly string[], io: CliIo = directStdoutIo()): boolean {
  const args = parseStatusArgv(argv)
  if (!args) return false
  let cards: Card[]
  let home: string
  try {
    home = resolveHome(args.home, io.env, defaultCliHome())
    const found = lookUpSnapshot(home, args)
    if (!found || found.cards.some((c) => c === null)) return false
    found.snapshot.save()
    cards = found.cards as Card[]
  } catch {
    return false // the CLI runs the call again and reports the error in its own format
  }
  const fleet = args.project === undefined
  printCards(io, cards, args.json, args.json && fleet ? readNeedsSummary(home) : undefined)
  if (!args.json && fleet) printNeedsLine(io, home)
  return true
}
