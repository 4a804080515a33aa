/** `muster serve` at work: the service (watching) behind the HTTP + SSE server until SIGINT/SIGTERM. */
import { existsSync, readFileSync } from 'node:fs'
import { createSecureContext, type SecureContextOptions } from 'node:tls'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Command } from 'commander'
import { lateWritesSettled } from '../../core/muse'
import { createService } from '../../core/root'
import { isLoopbackHost, newToken } from '../../server/auth'
import { startServer } from '../../server/http-server'
import { globals, homeOf } from '../context'
import { servedBase, writeServeBeacon } from '../serve-beacon'
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

/** What is wrong with a PEM file given as `what`, read from its own text (OpenSSL's reasons name no file), or null. */
function pemProblem(text: string, what: 'certificate' | 'private key'): string | null {
  const labels = [...text.matchAll(/-----BEGIN ([A-Z0-9 ]+)-----/g)].map((m) => m[1]!)
  if (labels.length === 0) return `is not a PEM ${what} (no "-----BEGIN" line; convert DER with openssl)`
  if (what === 'certificate') {
    if (labels.includes('CERTIFICATE')) return null
    if (labels.some((l) => l.endsWith('PRIVATE KEY'))) return 'is a private key, not a certificate (--tls-cert and --tls-key swapped?)'
    return `holds no certificate (it holds ${labels.join(', ')})`
  }
  if (labels.includes('ENCRYPTED PRIVATE KEY') || /Proc-Type: 4,ENCRYPTED/.test(text))
    return 'is encrypted with a passphrase, which muster serve cannot ask for (openssl pkey -in KEY -out PLAIN.pem)'
  if (labels.some((l) => l.endsWith('PRIVATE KEY'))) return null
  if (labels.includes('CERTIFICATE')) return 'is a certificate, not a private key (--tls-cert and --tls-key swapped?)'
  return `holds no private key (it holds ${labels.join(', ')})`
}

/** OpenSSL's reason without its codes and library names ("error:1E08010C:DECODER routines::unsupported" → "unsupported"). */
const opensslReason = (err: unknown): string =>
  (err as Error).message.replace(/^error:[0-9A-Fa-f]+:/, '').replace(/^[A-Za-z0-9 ]*routines::/, '')

/**
 * The certificate and key of `--tls-cert`/`--tls-key` (both or neither), read and checked now so
 * that a bad file is named (OpenSSL's own error names neither); null without them.
 */
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
  const cert = read(opts.tlsCert, 'certificate')
  const key = read(opts.tlsKey, 'key')
  const check = (file: string, what: 'certificate' | 'private key', ctx: SecureContextOptions, text: Buffer): void => {
    const problem = pemProblem(text.toString('latin1'), what)
    if (problem) throw new CliError(`the TLS ${what} ${file} ${problem}`)
    try {
      createSecureContext(ctx)
    } catch (err) {
      throw new CliError(`the TLS ${what} ${file} cannot be used: ${opensslReason(err)}`)
    }
  }
  check(opts.tlsCert, 'certificate', { cert }, cert)
  check(opts.tlsKey, 'private key', { key }, key)
  try {
    createSecureContext({ cert, key })
  } catch (err) {
    throw new CliError(
      /mismatch/i.test((err as Error).message)
        ? `the TLS key ${opts.tlsKey} does not belong to the certificate ${opts.tlsCert}`
        : `the TLS certificate ${opts.tlsCert} and key ${opts.tlsKey} cannot be used together: ${opensslReason(err)}`
    )
  }
  return { cert, key }
}

/** Why `muster serve` refuses to start: a LAN address without TLS, unless the operator said so. */
export function plainLanRefusal(host: string, tls: boolean, insecureLan: boolean): string | null {
  if (tls || insecureLan || isLoopbackHost(host)) return null
  return (
    `refusing to serve ${host} without TLS: the token and every answer would cross the network in clear text. ` +
    'Pass --tls-cert FILE --tls-key FILE, or --insecure-lan to serve it in clear anyway'
  )
}

/** Serves the dashboard; resolves when the process is asked to stop. */
export async function serve(
  io: CliIo,
  opts: { port: string; host: string; token?: string; tlsCert?: string; tlsKey?: string; insecureLan?: boolean },
  cmd: Command
): Promise<void> {
  const port = Number(opts.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`invalid --port '${opts.port}'`)
  if (opts.token !== undefined && !/^[A-Za-z0-9._~-]{16,}$/.test(opts.token)) {
    throw new CliError('--token must be at least 16 characters of [A-Za-z0-9._~-]')
  }
  const tls = readTls(io, opts)
  const refusal = plainLanRefusal(opts.host, tls !== null, opts.insecureLan === true)
  if (refusal) throw new CliError(refusal)
  const home = homeOf(cmd, io)
  const service = await createService({ home, transport: tls ? 'https' : 'http', watch: true, env: io.env })
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
      `warning: serving ${opts.host} beyond this machine without TLS (--insecure-lan): the token and every answer cross the network in clear text\n`
    )
  if (!existsSync(join(dir, 'index.html'))) io.stderr(`warning: the dashboard is not built (${dir}); run: npm run build\n`)
  // where `muster approvals decide` and `muster presence` send the operator to approve with presence
  const base = servedBase(opts.host, server.port, !!tls)
  const beacon = writeServeBeacon(home, base)
  if (globals(cmd).json) printJson(io, { url: server.openUrl, port: server.port, home })
  else {
    io.stdout(`Muster is serving the dashboard at ${server.openUrl}\n(home: ${home}; Ctrl+C to stop)\n`)
    if (isLoopbackHost(opts.host) && !tls) io.stdout(`passkeys and security keys work at ${base}/ (a host name, not an address)\n`)
  }
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
  beacon.remove()
  // edits in progress stop first (the service's close), then every call still open is answered
  const closing = service.close()
  await server.close()
  await closing
  // the versions recent edits replaced are watched for late agent writes a while longer (up to the
  // deadline above); nothing else is waited for: an aborted write's temp file is removed on exit
  await lateWritesSettled()
  process.exit(0)
}
