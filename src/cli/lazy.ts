/**
 * Lazy command actions: a command's definition (flags, help text) is registered up front from a
 * light module, and its implementation is imported only when that command runs. `muster --help`
 * or a hook that runs one small command never loads the service, zod, SQLite or the hub. A
 * group's subcommands are defined only when the group is used (`lazySubcommands`).
 */
import type { Command } from 'commander'
import type { CliIo } from './output'

/** An action implementation: the CLI's io first, then what commander passes (args, opts, cmd). */
type ActionImpl = (io: CliIo, ...args: never[]) => unknown

/**
 * A commander action that imports `load()` and calls its export `name` with `io` and the
 * command's arguments. `load` must be a literal `() => import('../actions/x')` so the bundler
 * splits the module into its own chunk.
 */
export function lazyAction<M, K extends keyof M>(
  io: CliIo,
  load: () => Promise<M>,
  name: K & (M[K] extends ActionImpl ? K : never)
): (...args: unknown[]) => Promise<void> {
  return async (...args: unknown[]) => {
    const impl = (await load())[name] as unknown as (io: CliIo, ...rest: unknown[]) => unknown
    await impl(io, ...args)
  }
}

/** Groups whose subcommands are not defined yet, with what defines them. */
const pendingSubcommands = new WeakMap<Command, (group: Command) => void>()

/**
 * Defers the definition of `group`'s subcommands until the group is used: `buildProgram` defines
 * them when the group is dispatched (`muster patch verify ...`) or its help is asked for (`muster
 * patch --help`, `muster help patch`). `muster --help` lists each group from its own definition
 * (name, description, arguments, options), so it never builds the subtrees under the groups.
 * `define` must only add subcommands (and what hangs on them) to `group`.
 */
export function lazySubcommands<C extends Command>(group: C, define: (group: C) => void): C {
  pendingSubcommands.set(group, define as (group: Command) => void)
  return group
}

/** Defines `cmd`'s deferred subcommands (once); true when it had any. */
export function defineSubcommands(cmd: Command): boolean {
  const define = pendingSubcommands.get(cmd)
  if (!define) return false
  pendingSubcommands.delete(cmd)
  define(cmd)
  return true
}
