/**
 * The `muster` command line. Every command accepts `--home DIR` and `--json` (before or after the
 * subcommand). Errors are one line on stderr (or `{"error": ...}` on stdout with --json) and a
 * non-zero exit code.
 *
 * Start-up cost matters (agents' hooks spawn this CLI on every tool call), so the CLI loads only
 * what the command being run needs. Adding a command:
 * 1. `commands/<name>.ts` holds its definition only: `registerX(program, io)` with the name,
 *    arguments, flags and help, and `.action(lazyAction(io, () => import('../actions/<name>'),
 *    'fn'))`; a group's subcommands inside `lazySubcommands(group, ...)` (defined when the group
 *    is used). It may import `commander` types, `../lazy`, `../output` types, flag helpers like
 *    `./hub-flags`, and `import type` of anything; nothing that loads the service, zod (the
 *    contract, `shared/api`), SQLite or the hub at run time.
 * 2. `actions/<name>.ts` exports `fn(io, ...commanderArgs)` doing the work (through
 *    `withRoot` / `withService` / `withHub`: the composition root, like the UI). The build
 *    (`scripts/build-cli.mjs`) makes the command tree one CommonJS file and every action an ES
 *    module entry of its own, loaded only when that command runs.
 * 3. Call `registerX(program, io)` in `buildProgram` below.
 * `cli-startup.test.ts` fails when the entry chunk statically reaches a heavy module.
 */
import { Command, CommanderError } from 'commander'
import { MUSTER_VERSION } from '../core/version'
import { registerApprovals } from './commands/approvals'
import { registerApproveHook } from './commands/approve-hook'
import { registerSessionHook } from './commands/session-hook'
import { registerArtifact } from './commands/artifact'
import { registerChain } from './commands/chain'
import { registerConnect } from './commands/connect'
import { registerDemo } from './commands/demo'
import { registerDirectives } from './commands/directives'
import { registerLint } from './commands/lint'
import { registerMcp } from './commands/mcp'
import { registerMemory } from './commands/memory'
import { registerNeeds } from './commands/needs'
import { registerGates } from './commands/gates'
import { registerNotes } from './commands/notes'
import { registerPatch } from './commands/patch'
import { registerEvents } from './commands/events'
import { registerHubs } from './commands/hubs'
import { registerProjects } from './commands/projects'
import { registerRoles } from './commands/roles'
import { registerRules } from './commands/rules'
import { registerKeys } from './commands/keys'
import { registerPresence } from './commands/presence'
import { registerServe } from './commands/serve'
import { registerStatus } from './commands/status'
import { registerTask } from './commands/task'
import { registerThread } from './commands/thread'
import { registerUsage } from './commands/usage'
import { registerBudget } from './commands/budget'
import { helpOutput } from './help-output'
import { defineSubcommands } from './lazy'
import { CliError, CliExit, errorText, fail, processIo, type CliIo } from './output'
import { argparseMessage, isArgparseStyle, progOf, USAGE_EXIT, UsageError, usageLine } from './usage'

/** The command that raised each commander error (its `exitOverride` records it). */
const raisedBy = new WeakMap<CommanderError, Command>()

/** Builds the command tree writing to `io`. */
export function buildProgram(io: CliIo): Command {
  const program = new Command('muster')
  const output = helpOutput(program, io)
  program
    .description("Muster: the operator's console for a fleet of coding agents")
    .version(MUSTER_VERSION, '-V, --version')
    .option('--home <dir>', "Muster's home folder (default: $MUSTER_HOME, else ~/.muster)")
    .option('--json', 'print machine-readable JSON')
    .option(
      '--palace <dir>',
      'MemPalace palace holding logstream.sqlite3 (default: the hub registered first, else $MEMPALACE_PALACE_PATH, ~/.mempalace/config.json, ~/.mempalace/palace)'
    )
    .showHelpAfterError(false)
    .configureOutput(output)
    .exitOverride()
  registerProjects(program, io)
  registerStatus(program, io)
  registerRoles(program, io)
  registerDirectives(program, io)
  registerMemory(program, io)
  registerLint(program, io)
  registerDemo(program, io)
  registerServe(program, io)
  registerEvents(program, io)
  registerThread(program, io)
  registerTask(program, io)
  registerHubs(program, io)
  registerNotes(program, io)
  registerArtifact(program, io)
  registerPatch(program, io)
  registerChain(program, io)
  registerRules(program, io)
  registerMcp(program, io)
  registerApprovals(program, io)
  registerNeeds(program, io)
  registerConnect(program, io)
  registerGates(program, io)
  registerKeys(program, io)
  registerPresence(program, io)
  registerUsage(program, io)
  registerBudget(program, io)
  registerApproveHook(program, io)
  registerSessionHook(program, io)
  /** Every command from `top` down reports its errors through runCli and writes to `io`. */
  const configure = (top: Command): void => {
    for (const cmd of [top, ...allCommands(top)]) {
      cmd
        .exitOverride((err) => {
          raisedBy.set(err, cmd)
          throw err
        })
        .configureOutput(output)
    }
  }
  // a group's subcommands (lazySubcommands) are defined when it is dispatched or its help is printed
  const complete = (cmd: Command): void => {
    if (defineSubcommands(cmd)) configure(cmd)
  }
  program.hook('preSubcommand', (_self, sub) => complete(sub))
  for (const cmd of program.commands) cmd.on('beforeHelp', () => complete(cmd))
  configure(program)
  return program
}

/** Whether argv names a command (or asks for help or the version) past the global options. */
function hasCommand(argv: readonly string[]): boolean {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    if (a === '--home' || a === '--palace') i++
    else if (a !== '--json' && !a.startsWith('--home=') && !a.startsWith('--palace=')) return true
  }
  return false
}

function allCommands(cmd: Command): Command[] {
  return cmd.commands.flatMap((c) => [c, ...allCommands(c)])
}

/** Runs the CLI with `argv` (without node and script) and returns the exit code. */
export async function runCli(argv: string[], io: CliIo = processIo()): Promise<number> {
  const program = buildProgram(io)
  const json = argv.includes('--json')
  if (!hasCommand(argv)) {
    // `muster` alone (or with global options only): the help, not silence
    io.stdout(program.helpInformation())
    return 0
  }
  let running: Command | null = null
  program.hook('preAction', (_self, action) => {
    running = action
  })
  try {
    await program.parseAsync(argv, { from: 'user' })
    return 0
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.exitCode === 0) return 0
      const cmd = raisedBy.get(err)
      // a `mempalace` twin group without its subcommand prints its help and exits 0, as argparse's
      // `p_logstream.print_help()` does (upstream cli/__init__.py)
      if (err.code === 'commander.help' && cmd && cmd !== program && isArgparseStyle(cmd)) {
        io.stdout(cmd.helpInformation())
        return 0
      }
      if (err.code === 'commander.help' || err.code === 'commander.executeSubCommandAsync') return 0
      if (cmd && isArgparseStyle(cmd)) return usageFail(io, cmd, argparseMessage(err, cmd, argv))
      return fail(io, json, err.message.replace(/^error:\s*/, ''), 1)
    }
    if (err instanceof UsageError) return usageFail(io, err.command, err.message)
    if (err instanceof CliExit) return err.exitCode
    const upstream = isArgparseStyle(running)
    if (err instanceof CliError) return fail(io, json, errorText(err), err.exitCode, upstream)
    return fail(io, json, errorText(err), 1, upstream)
  }
}

/** A usage error of a `mempalace` twin, as argparse reports it: stderr only, exit 2. */
function usageFail(io: CliIo, cmd: Command, message: string): number {
  io.stderr(`${usageLine(cmd)}\n${progOf(cmd)}: error: ${message}\n`)
  return USAGE_EXIT
}
