/** `muster serve` at work: the service (watching) behind the HTTP + SSE server until SIGINT/SIGTERM. */
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Command } from 'commander'
import { createService } from '../../core/root'
import { newToken } from '../../server/auth'
import { startServer } from '../../server/http-server'
import { globals, homeOf } from '../context'
import { CliError, printJson, type CliIo } from '../output'

/** How long a stop signal waits for a clean close before the process ends anyway (the DoD: 2 s). */
export const STOP_DEADLINE_MS = 1_500

/** The built renderer folder (`out/renderer` of the package), or MUSTER_STATIC_DIR. */
export function staticDir(env: NodeJS.ProcessEnv): string {
  if (env.MUSTER_STATIC_DIR) return env.MUSTER_STATIC_DIR
  let dir = dirname(fileURLToPath(import.meta.url))
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'src', 'renderer'))) return join(dir, 'out', 'renderer')
    dir = dirname(dir)
  }
  return join(dirname(fileURLToPath(import.meta.url)), '..', 'renderer')
}

/** Serves the dashboard; resolves when the process is asked to stop. */
export async function serve(io: CliIo, opts: { port: string; host: string; token?: string }, cmd: Command): Promise<void> {
  const port = Number(opts.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`invalid --port '${opts.port}'`)
  if (opts.token !== undefined && !/^[A-Za-z0-9._~-]{16,}$/.test(opts.token)) {
    throw new CliError('--token must be at least 16 characters of [A-Za-z0-9._~-]')
  }
  const home = homeOf(cmd, io)
  const service = await createService({ home, transport: 'http', watch: true, env: io.env })
  const dir = staticDir(io.env)
  let server
  try {
    server = await startServer({ service, token: opts.token ?? newToken(), host: opts.host, port, staticDir: dir })
  } catch (err) {
    await service.close()
    throw new CliError(`cannot listen on ${opts.host}:${port}: ${(err as Error).message}`)
  }
  if (!existsSync(join(dir, 'index.html'))) io.stderr(`warning: the dashboard is not built (${dir}); run: npm run build\n`)
  if (globals(cmd).json) printJson(io, { url: server.openUrl, port: server.port, home })
  else io.stdout(`Muster is serving the dashboard at ${server.openUrl}\n(home: ${home}; Ctrl+C to stop)\n`)
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      // whatever is still running (a hub wait, a slow close) gets this long, then the process ends;
      // a second signal ends it at once
      setTimeout(() => process.exit(0), STOP_DEADLINE_MS).unref()
      process.once('SIGINT', () => process.exit(130))
      process.once('SIGTERM', () => process.exit(143))
      resolve()
    }
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  })
  await server.close()
  await service.close()
}
