/** Child processes of `node` (the built CLI, a hook) as the process tests start them. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'

/** What a child printed on stdout and stderr, and its exit code (null when a signal ended it). */
export interface Ended {
  code: number | null
  stdout: string
  stderr: string
}

/** A started child: the process, what it printed so far, and its end. */
export interface Started {
  proc: ChildProcessWithoutNullStreams
  out: () => string
  err: () => string
  done: Promise<Ended>
}

/**
 * Starts `node ARGS` with MUSTER_HOME unset (then `env`), writes `stdin` and closes it; `done`
 * resolves with what it printed once it ends. A child may stop reading its stdin before the end
 * (a hook refusing a payload that is too large): the broken pipe is no error of the test's.
 */
export function startNode(args: string[], stdin: string, env: NodeJS.ProcessEnv = {}): Started {
  const proc = spawn(process.execPath, args, { env: { ...process.env, MUSTER_HOME: '', ...env }, stdio: ['pipe', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  proc.stdout.on('data', (d: Buffer) => (stdout += d))
  proc.stderr.on('data', (d: Buffer) => (stderr += d))
  proc.stdin.on('error', () => {})
  proc.stdin.end(stdin)
  const done = new Promise<Ended>((res) => proc.on('close', (code) => res({ code, stdout, stderr })))
  return { proc, out: () => stdout, err: () => stderr, done }
}

/** Polls `probe` every `everyMs` until it returns something other than null; throws after `ms` (a minute by default). */
export async function until<T>(probe: () => Promise<T | null> | T | null, everyMs: number, ms = 60_000): Promise<T> {
  const t = Date.now()
  for (;;) {
    const v = await probe()
    if (v !== null) return v
    if (Date.now() - t > ms) throw new Error('gave up waiting')
    await new Promise((r) => setTimeout(r, everyMs))
  }
}
