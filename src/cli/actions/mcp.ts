/**
 * `muster mcp` at work: JSON-RPC over stdio, one request per line (MemPalace's `_run_stdio_loop`,
 * mcp_server/runtime.py @ 83ac0404, MUSE's mcp-server.sh read loop). stdout belongs to the
 * protocol, so every console method is sent to stderr first. Requests are answered as they
 * finish (a long `mempalace_event_wait` does not hold up the calls behind it; each answer carries
 * its id). At the end of stdin the waits still running are cancelled, the answers owed are
 * written, and the process ends; a reader gone from stdout ends it at once.
 */
import { createInterface } from 'node:readline'
import type { Command } from 'commander'
import { projectRoot } from '../../core/mcp'
import { openRoot } from '../../core/root'
import { homeOf } from '../context'
import { buildMcpServer } from '../mcp/server'
import type { CliIo } from '../output'
import { cliSelection } from './hub-cli'

/** Runs the server on the process's stdin/stdout. */
export async function mcp(io: CliIo, opts: { projectRoot?: string }, cmd: Command): Promise<void> {
  const root = await projectRoot(opts.projectRoot ?? io.cwd)
  for (const m of ['log', 'info', 'debug', 'warn'] as const) console[m] = (...args: unknown[]) => console.error(...args)
  const core = openRoot({ home: homeOf(cmd, io), env: io.env })
  const server = buildMcpServer({ root, hubs: await core.get('hubs'), hub: cliSelection(cmd, io) })
  const ended = new AbortController()
  let stdoutGone = false
  process.stdout.on('error', () => {
    stdoutGone = true
    ended.abort()
  })
  const pending = new Set<Promise<void>>()
  io.stderr(`muster mcp: serving ${root} over stdio\n`)
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity })
  for await (const raw of lines) {
    if (stdoutGone) break
    const line = raw.trim()
    if (!line) continue
    const job = server
      .line(line, ended.signal)
      .then((answer) => {
        if (answer !== null && !stdoutGone) process.stdout.write(answer + '\n')
      })
      .catch((err: unknown) => io.stderr(`muster mcp: ${(err as Error).message}\n`))
      .finally(() => pending.delete(job))
    pending.add(job)
  }
  ended.abort()
  await Promise.all(pending)
  await core.close()
}
