/** `muster status`: every project's roles with their parsed L0 (the CLI twin of the overview). */
import type { Command } from 'commander'
import { lazyAction } from '../lazy'
import type { CliIo } from '../output'

/** Registers the `status` command. */
export function registerStatus(program: Command, io: CliIo): void {
  program
    .command('status')
    .description("print every project's roles with their parsed L0 status line")
    .option('--project <name>', 'only this project')
    .action(lazyAction(io, () => import('../actions/status'), 'status'))
}

/** What a plain `muster status` call asks for. */
export interface StatusArgs {
  home?: string
  json: boolean
  project?: string
}

/** Options taking a value (`--x v` or `--x=v`; the last one wins, as in commander). `--palace` is global and unused here. */
const VALUE_FLAGS = new Set(['--home', '--project', '--palace'])

/**
 * Reads argv as a call of `status` with only the global options and `--project`, in any order
 * around the command word, as commander would; null for anything else (help, a typo, another
 * command, `--`): commander then answers it, help and errors included.
 */
export function parseStatusArgv(argv: readonly string[]): StatusArgs | null {
  let command = false
  let json = false
  const values = new Map<string, string>()
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!
    if (word === 'status' && !command) command = true
    else if (word === '--json') json = true
    else {
      const eq = word.indexOf('=')
      const flag = eq > 0 ? word.slice(0, eq) : word
      if (!VALUE_FLAGS.has(flag) || (flag === '--project' && !command)) return null
      const value = eq > 0 ? word.slice(eq + 1) : argv[++i]
      if (value === undefined || (eq < 0 && value.startsWith('-'))) return null
      values.set(flag, value)
    }
  }
  if (!command) return null
  const home = values.get('--home')
  const project = values.get('--project')
  return { json, ...(home !== undefined && { home }), ...(project !== undefined && { project }) }
}
