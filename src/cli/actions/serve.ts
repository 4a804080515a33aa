/** `muster serve` at work: the service (watching) behind the HTTP + SSE server until SIGINT/SIGTERM. */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Command } from 'commander'
import { createService } from '../../core/root'
import { isLoopbackHost, newToken } from '../../server/auth'
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

/** The certificate and key of `--tls-cert`/`--tls-key` (both or neither), read now; null without them. */
function readTls(io: CliIo, opts: { tlsCert?: string; tlsKey?: string }): { cert: Buffer; key: Buffer } | null {
  if (!opts.tlsCert && !opts.tlsKey) return null
  if (!opts.tlsCert || !opts.tlsKey) throw new CliError('--tls-cert and --tls-key go together')
  const read = (file: string, what: string): Buffer => {
    try {
      return readFileSync(resolve(io.cwd, file))
    } catch (err) {
      throw new CliError(`cannot read the TLS ${what} ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`)
    }
  }
  return { cert: read(opts.tlsCert, 'certificate'), key: read(opts.tlsKey, 'key') }
}

/** Serves the dashboard; resolves when the process is asked to stop. */
export async function serve(
  io: CliIo,
  opts: { port: string; host: string; token?: string; tlsCert?: string; tlsKey?: string },
  cmd: Command
): Promise<void> {
  const port = Number(opts.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`invalid --port '${opts.port}'`)
  if (opts.token !== undefined && !/^[A-Za-z0-9._~-]{16,}$/.test(opts.token)) {
    throw new CliError('--token must be at least 16 characters of [A-Za-z0-9._~-]')
  }
  const tls = readTls(io, opts)
  const home = homeOf(cmd, io)
  const service = await createService({ home, transport: 'http', watch: true, env: io.env })
  const dir = staticDir(io.env)
  let server
  try {
    server = await startServer({ service, token: opts.token ?? newToken(), host: opts.host, port, staticDir: dir, ...(tls ? { tls } : {}) })
  } catch (err) {
    await service.close()
    throw new CliError(`cannot listen on ${opts.host}:${port}: ${(err as Error).message}`)
  }
  if (!tls && !isLoopbackHost(opts.host))
    io.stderr(
      `warning: serving ${opts.host} beyond this machine without TLS: the token and every answer cross the network in clear text; pass --tls-cert FILE --tls-key FILE\n`
    )
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
