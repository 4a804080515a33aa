/**
 * Shared plumbing for command actions: global options, Muster's home, the service for this
 * invocation. The service is imported only by `withService`, so an action that does not need it
 * (`muster status`) never loads it.
 */
import type { Command } from 'commander'
import type { MusterService } from '../core/service-types'
import { defaultCliHome, resolveHome } from '../core/fleet'
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

/** Runs `fn` with a non-watching service and always closes it. */
export async function withService<T>(cmd: Command, io: CliIo, fn: (service: MusterService) => Promise<T>): Promise<T> {
  const { createService } = await import('../core/service')
  const service = await createService({ home: homeOf(cmd, io), transport: 'http', watch: false })
  try {
    return await fn(service)
  } finally {
    await service.close()
  }
}
