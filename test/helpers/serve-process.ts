/**
 * `muster serve` (the built CLI) as a child process on a free port, for the tests that signal it:
 * started with `--port 0 --json`, its port read from the JSON line it prints, and stopped by
 * SIGTERM with a SIGKILL fallback so a hung server cannot hang the test.
 */
import { spawn, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { request } from 'node:http'

/** A started server: the process, its port, its exit code once it ends, and what it wrote to stderr so far. */
export interface ServeProcess {
  proc: ChildProcessWithoutNullStreams
  port: number
  exited: Promise<number | null>
  stderr: () => string
}

/** Starts `bin serve` on `home` with `token` (and `env` added); resolves once it prints its port, rejects if it ends first. */
export async function startServe(bin: string, home: string, token: string, env: NodeJS.ProcessEnv = {}): Promise<ServeProcess> {
  const proc = spawn(process.execPath, [bin, 'serve', '--port', '0', '--token', token, '--home', home, '--json'], {
    env: { ...process.env, MUSTER_HOME: '', ...env }
  })
  let out = ''
  let err = ''
  proc.stderr.on('data', (d: Buffer) => (err += d))
  const exited = new Promise<number | null>((res) => proc.on('close', (code) => res(code)))
  const port = await new Promise<number>((resolve, reject) => {
    proc.stdout.on('data', (d: Buffer) => {
      out += d
      const m = /"port":\s*(\d+)/.exec(out)
      if (m) resolve(Number(m[1]))
    })
    proc.on('close', () => reject(new Error(`serve ended: ${err}`)))
  })
  return { proc, port, exited, stderr: () => err }
}

/** Sends SIGTERM, and SIGKILL after `fallbackMs`; resolves with the exit code (check `proc.signalCode` for which one ended it). */
export async function stopServe(serve: ServeProcess, fallbackMs: number): Promise<number | null> {
  serve.proc.kill('SIGTERM')
  const timer = setTimeout(() => serve.proc.kill('SIGKILL'), fallbackMs)
  const code = await serve.exited
  clearTimeout(timer)
  return code
}

/** POSTs one API call to the server on `port` with `token`; resolves with the status and body text, or status 0 and the socket error's message. */
export function callServe(port: number, token: string, method: string, input: unknown): Promise<{ status: number; text: string }> {
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: `/api/call/${method}`,
        method: 'POST',
        headers: { host: `127.0.0.1:${port}`, authorization: `Bearer ${token}`, 'content-type': 'application/json' }
      },
      (res) => {
        let text = ''
        res.on('data', (d) => (text += d))
        res.on('end', () => resolve({ status: res.statusCode!, text }))
        res.on('error', (e) => resolve({ status: 0, text: e.message }))
      }
    )
    req.on('error', (e) => resolve({ status: 0, text: e.message }))
    req.end(JSON.stringify(input))
  })
}

/**
 * The origin a `muster serve` started without `--json` prints ("serving the dashboard at …");
 * rejects when it exits first or has not said it within `ms`.
 */
export function dashboardOrigin(child: ChildProcess, ms: number): Promise<string> {
  return new Promise<string>((res, rej) => {
    let out = ''
    child.stdout!.on('data', (d) => {
      out += d
      const origin = /serving the dashboard at (http:\/\/127\.0\.0\.1:\d+)\//.exec(out)?.[1]
      if (origin) res(origin)
    })
    child.once('exit', (code) => rej(new Error(`muster serve exited ${code}`)))
    setTimeout(() => rej(new Error(`muster serve did not start: ${out}`)), ms).unref()
  })
}
