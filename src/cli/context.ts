/**
 * Shared plumbing for command actions: global options, Muster's home, and the composition root for
 * this invocation (`withRoot`), from which a command takes the parts it needs (the service, or only
 * the hub or patch service). The root builds only what is asked for, so an action that needs
 * little loads little.
 */
import type { Command } from 'commander'
import type { MusterService } from '../core/service-types'
import { defaultCliHome, resolveHome } from '../core/fleet'
import { openRoot, type Root } from '../core/root'
import type { CliIo } from './output'

/** Options every command accepts (before or after the subcommand). */
export interface GlobalOptions {
  home?: string
  json?: boolean
  /** MemPalace palace folder for hub commands (`--palace`, as `mempalace --palace`). */
  palace?: string
}

/** Reads the global options as seen by a (sub)command. */
export function globals(cmd: Command): GlobalOptions {
  return cmd.optsWithGlobals() as GlobalOptions
}

/** Muster's home for this invocation. */
export function homeOf(cmd: Command, io: CliIo): string {
  return resolveHome(globals(cmd).home, io.env, defaultCliHome())
}

/** Runs `fn` with a non-watching root on this invocation's home and always closes it. */
export async function withRoot<T>(cmd: Command, io: CliIo, fn: (root: Root) => Promise<T>): Promise<T> {
  const root = openRoot({ home: homeOf(cmd, io), env: io.env, transport: 'http', watch: false })
  try {
    return await fn(root)
  } finally {
    await root.close()
  }
}

/** Runs `fn` with the contract's service (non-watching) and always closes it. */
export function withService<T>(cmd: Command, io: CliIo, fn: (service: MusterService) => Promise<T>): Promise<T> {
  return withRoot(cmd, io, async (root) => fn(await root.get('service')))
}
