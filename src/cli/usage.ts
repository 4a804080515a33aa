/**
 * Usage errors the argparse way, for the commands that twin `mempalace` ones (events, task,
 * thread, and any group marked with `argparseStyle`): exit 2, nothing on stdout (not even with
 * --json), and on stderr a usage line then `<prog>: error: <what argparse says>` (the following
 * arguments are required / unrecognized arguments / invalid choice / invalid int value / expected
 * one argument / not allowed with). Other commands keep Muster's documented convention (one
 * line, `{"error"}` with --json, exit 1). Light on purpose: loaded on every run (see `lazy.ts`).
 */
import { type Command, type CommanderError, InvalidArgumentError, type Option } from 'commander'

/** argparse's exit code for usage errors. */
export const USAGE_EXIT = 2

const marked = new WeakSet<Command>()
const oneOfGroups = new WeakMap<Command, string[][]>()

/** Marks a command (and everything under it) as an argparse twin. */
export function argparseStyle(cmd: Command): Command {
  marked.add(cmd)
  return cmd
}

/** True when `cmd` or a parent was marked with `argparseStyle`. */
export function isArgparseStyle(cmd: Command | null | undefined): boolean {
  for (let c = cmd; c; c = c.parent) if (marked.has(c)) return true
  return false
}

/** A usage error raised by Muster's own checks (argparse's message, without the prog). */
export class UsageError extends Error {
  constructor(
    readonly command: Command,
    message: string
  ) {
    super(message)
    this.name = 'UsageError'
  }
}

/** Python's `repr` of a simple string (argparse quotes values with it). */
function repr(s: string): string {
  return s.includes("'") && !s.includes('"') ? `"${s}"` : `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
}

/** An `int` flag parsed like Python's `int()` (signs, surrounding spaces, `1_000`); argparse's error otherwise. */
export function pyIntFlag(v: string): number {
  if (!/^\s*[+-]?\d+(?:_\d+)*\s*$/.test(v)) throw new InvalidArgumentError(`invalid int value: ${repr(v)}`)
  return Number(v.trim().replace(/_/g, ''))
}

/** A flag limited to `choices` (argparse `choices=`). */
export function choiceFlag<T extends string>(...choices: T[]): (v: string) => T {
  return (v) => {
    if (!(choices as string[]).includes(v))
      throw new InvalidArgumentError(`invalid choice: ${repr(v)} (choose from ${choices.map(repr).join(', ')})`)
    return v as T
  }
}

/** `--a` or `--b` is required (argparse's required mutually exclusive group; the conflict is declared with `conflicts`). */
export function requireOneOf(cmd: Command, longs: string[]): Command {
  const groups = oneOfGroups.get(cmd) ?? []
  if (!groups.length) {
    cmd.hook('preAction', (_self, action) => {
      for (const group of oneOfGroups.get(action) ?? []) {
        const given = group.some((long) => action.getOptionValueSource(attr(action, long)) === 'cli')
        if (!given) throw new UsageError(action, `one of the arguments ${group.join(' ')} is required`)
      }
    })
  }
  oneOfGroups.set(cmd, [...groups, longs])
  return cmd
}

function attr(cmd: Command, long: string): string {
  return cmd.options.find((o) => o.long === long)?.attributeName() ?? long
}

/** The usage line argparse prints first. */
export function usageLine(cmd: Command): string {
  const path: string[] = []
  for (let c: Command | null = cmd; c; c = c.parent) path.unshift(c.name())
  return `usage: ${path.join(' ')} ${cmd.usage()}`.trimEnd()
}

/** The prog argparse names in `<prog>: error: ...`. */
export function progOf(cmd: Command): string {
  const path: string[] = []
  for (let c: Command | null = cmd; c; c = c.parent) path.unshift(c.name())
  return path.join(' ')
}

/** Everything still missing, argparse's order: positionals, then required options. */
function missing(cmd: Command): string[] {
  const args = cmd.registeredArguments.filter((a, i) => a.required && i >= cmd.args.length).map((a) => a.name())
  const opts = cmd.options.filter((o) => o.mandatory && cmd.getOptionValue(o.attributeName()) === undefined).map((o) => o.long!)
  return [...args, ...opts]
}

/** Position of a flag's last use in argv (`--x v` or `--x=v`), -1 when absent. */
function lastUse(argv: string[], o: Option): number {
  let at = -1
  argv.forEach((a, i) => {
    if (a === o.long || a.startsWith(`${o.long}=`) || (o.short && a === o.short)) at = i
  })
  return at
}

/** argparse's wording of a commander parse error on `cmd`. */
export function argparseMessage(err: CommanderError, cmd: Command, argv: string[]): string {
  const text = err.message.replace(/^error: /, '')
  switch (err.code) {
    case 'commander.missingMandatoryOptionValue':
    case 'commander.missingArgument':
      return `the following arguments are required: ${missing(cmd).join(', ')}`
    case 'commander.unknownOption':
      return `unrecognized arguments: ${/'([^']*)'/.exec(text)?.[1] ?? text}`
    case 'commander.excessArguments':
      return `unrecognized arguments: ${cmd.args.slice(cmd.registeredArguments.length).join(' ')}`
    case 'commander.unknownCommand': {
      const names = cmd.commands.map((c) => repr(c.name())).join(', ')
      return `argument command: invalid choice: ${repr(/'([^']*)'/.exec(text)?.[1] ?? '')} (choose from ${names})`
    }
    case 'commander.optionMissingArgument':
      return `argument ${/'(-[-\w]+)/.exec(text)?.[1] ?? ''}: expected one argument`
    case 'commander.invalidArgument': {
      const m = /^option '(-[-\w]+)[^']*' argument .*? is invalid\. ([\s\S]*)$/.exec(text)
      return m ? `argument ${m[1]}: ${m[2]}` : text
    }
    case 'commander.conflictingOption': {
      const names = [...text.matchAll(/option '(-[-\w]+)/g)].map((m) => m[1]!)
      const opts = names.map((n) => cmd.options.find((o) => o.long === n)!).filter(Boolean)
      const [first, later] =
        opts.length === 2 && lastUse(argv, opts[0]!) > lastUse(argv, opts[1]!) ? [opts[1]!, opts[0]!] : [opts[0]!, opts[1]!]
      return later ? `argument ${later.long}: not allowed with argument ${first.long}` : text
    }
    default:
      return text
  }
}
