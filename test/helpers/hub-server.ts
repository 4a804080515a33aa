/**
 * Runs test/hub_server.py (the project's stand-in for `mempalace serve`) for a test: start it on a
 * palace folder, stop it (SIGTERM, as an operator would), start it again on the same port.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const SCRIPT = fileURLToPath(new URL('../hub_server.py', import.meta.url))

/** How to run the stand-in. */
export interface HubServerOptions {
  palace: string
  token?: string
  readOnly?: boolean
  maxClients?: number
  /** An older hub: list/wait without `writer`. */
  legacy?: boolean
  /** Heartbeat interval (upstream: 15 s). */
  pingSeconds?: number
  /** Default: any free port. */
  port?: number
}

/** A running stand-in. */
export interface HubServer {
  url: string
  port: number
  /** Stops the server (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>
  /** Starts it again on the same port, on the same palace or another one. */
  restart(palace?: string): Promise<void>
  /** Sends a signal to the server process (SIGSTOP freezes it: its sockets stay open but silent). */
  signal(sig: NodeJS.Signals): void
}

function launch(o: HubServerOptions): Promise<{ proc: ChildProcess; url: string; port: number }> {
  const args = [SCRIPT, '--palace', o.palace, '--port', String(o.port ?? 0)]
  if (o.token) args.push('--token', o.token)
  if (o.readOnly) args.push('--read-only')
  if (o.maxClients !== undefined) args.push('--max-clients', String(o.maxClients))
  if (o.legacy) args.push('--legacy')
  if (o.pingSeconds !== undefined) args.push('--ping-seconds', String(o.pingSeconds))
  const proc = spawn('python3', args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, MEMPALACE_MCP_HTTP_TOKEN: '' } })
  let out = ''
  let err = ''
  proc.stderr!.on('data', (d: Buffer) => (err += d.toString()))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`hub_server.py did not start: ${err}`)), 10_000)
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      const line = out.split('\n').find((l) => l.startsWith('{'))
      if (!line) return
      clearTimeout(timer)
      const info = JSON.parse(line) as { url: string; port: number }
      resolve({ proc, url: info.url, port: info.port })
    })
    proc.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`hub_server.py exited with ${code}: ${err}`))
    })
  })
}

function stopProc(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    proc.once('exit', () => resolve())
    proc.kill('SIGTERM')
  })
}

/** Starts the stand-in and resolves once it listens. */
export async function startHubServer(o: HubServerOptions): Promise<HubServer> {
  let current = await launch(o)
  const server: HubServer = {
    url: current.url,
    port: current.port,
    stop: () => stopProc(current.proc),
    restart: async (palace) => {
      await stopProc(current.proc)
      current = await launch({ ...o, palace: palace ?? o.palace, port: server.port })
    },
    signal: (sig) => void current.proc.kill(sig)
  }
  return server
}
