/**
 * Lazy command actions: a command's definition (flags, help text) is registered up front from a
 * light module, and its implementation is imported only when that command runs. `muster --help`
 * or a hook that runs one small command never loads the service, zod, SQLite or the hub.
 */
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
