/**
 * `muster serve` (the built CLI) as a child process on a free port, for the tests that signal it:
 * started with `--port 0 --json`, its port read from the JSON line it prints, and stopped by
 * SIGTERM with a SIGKILL fallback so a hung server cannot hang the test.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'

/** A started server: the process, its port, its exit code once it ends, and what it wrote to stderr so far. */
export interface ServeProcess {
  proc: ChildProcessWithoutNullStreams
  port: number
  exited: Promise<number | null>
  stderr: () => string
}

/** Starts `bin serve` on `home` with `token`; resolves once it prints its port, rejects if it ends first. */
export async function startServe(bin: string, home: string, token: string): Promise<ServeProcess> {
  const proc = spawn(process.execPath, [bin, 'serve', '--port', '0', '--token', token, '--home', home, '--json'], {
    env: { ...process.env, MUSTER_HOME: '' }
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
