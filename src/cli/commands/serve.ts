/** `muster serve`: the dashboard over HTTP + SSE for a browser, on 127.0.0.1 with a token. */
import type { Command } from 'commander'
import { lazyAction } from '../lazy'
import type { CliIo } from '../output'

/** Registers the `serve` command; it runs until SIGINT/SIGTERM. */
export function registerServe(program: Command, io: CliIo): void {
  program
    .command('serve')
    .description('serve the dashboard to a browser (127.0.0.1 by default, token required)')
    .option('--port <n>', 'port (default: a free one)', '0')
    .option('--host <host>', 'address to bind (beyond loopback: TLS required, the token and Host/Origin checks stay)', '127.0.0.1')
    .option('--token <token>', 'use this token instead of a random one (at least 16 characters)')
    .option('--tls-cert <file>', 'serve HTTPS with this certificate (PEM; with --tls-key), for a --host beyond loopback')
    .option('--tls-key <file>', "the certificate's private key (PEM)")
    .option('--insecure-lan', 'serve a --host beyond loopback without TLS (the token crosses the network in clear)')
    .action(lazyAction(io, () => import('../actions/serve'), 'serve'))
}
