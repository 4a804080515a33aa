/**
 * Runs a project's test command after an apply: the operator's own command line, so through the
 * platform shell (`sh -c` / `cmd /c`), in the repository root, in its own process group so a
 * timeout or a cancel stops everything it started. Output streams to a callback as it comes and
 * the last 64 KiB are kept for the evidence. Never blocks the event loop.
 */
import { spawn } from 'node:child_process'

/** How a test run ended. */
export type TestStatus = 'passed' | 'failed' | 'timed-out' | 'cancelled' | 'error'

/** The result of a test run. */
export interface TestResult {
  status: TestStatus
  exitCode: number | null
  durationMs: number
  /** The last bytes of stdout and stderr as printed (at most `TAIL_BYTES`). */
  tail: string
}

/** A running test command. */
export interface TestRun {
  done: Promise<TestResult>
  /** Stops the command (SIGTERM to its group, SIGKILL after a grace period). */
  cancel(): void
}

/** Bytes of output kept for the evidence and the run record. */
export const TAIL_BYTES = 64 * 1024
/** Grace between SIGTERM and SIGKILL: enough for a test runner to print its summary. */
const KILL_GRACE_MS = 3000

/** Starts `command` in `cwd`; `onOutput` receives text as it is printed. */
export function runTestCommand(command: string, cwd: string, timeoutMs: number, onOutput: (text: string) => void): TestRun {
  const started = Date.now()
  const windows = process.platform === 'win32'
  const child = windows
    ? spawn('cmd.exe', ['/d', '/s', '/c', command], { cwd, windowsHide: true, stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn('/bin/sh', ['-c', command], { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  let tail = ''
  let stopping: 'timed-out' | 'cancelled' | null = null
  let killTimer: NodeJS.Timeout | null = null
  const decoders = { out: new TextDecoder(), err: new TextDecoder() }
  const take = (which: 'out' | 'err') => (chunk: Buffer) => {
    const text = decoders[which].decode(chunk, { stream: true })
    if (!text) return
    tail = (tail + text).slice(-TAIL_BYTES)
    onOutput(text)
  }
  child.stdout.on('data', take('out'))
  child.stderr.on('data', take('err'))

  const signal = (sig: NodeJS.Signals): void => {
    try {
      if (windows || child.pid === undefined) child.kill(sig)
      else process.kill(-child.pid, sig) // the whole group: `npm test` and the runner it starts
    } catch {
      /* already gone */
    }
  }
  const stop = (why: 'timed-out' | 'cancelled'): void => {
    if (stopping || child.exitCode !== null) return
    stopping = why
    signal('SIGTERM')
    killTimer = setTimeout(() => signal('SIGKILL'), KILL_GRACE_MS)
  }
  const timer = setTimeout(() => stop('timed-out'), timeoutMs)

  const done = new Promise<TestResult>((resolveDone) => {
    let errored: Error | null = null
    child.on('error', (err) => (errored = err))
    child.on('close', (code) => {
      clearTimeout(timer)
      if (killTimer) clearTimeout(killTimer)
      const durationMs = Date.now() - started
      if (errored) {
        const line = `could not start the test command: ${(errored as Error).message}\n`
        tail += line
        onOutput(line)
        return resolveDone({ status: 'error', exitCode: null, durationMs, tail })
      }
      const status: TestStatus = stopping ?? (code === 0 ? 'passed' : 'failed')
      resolveDone({ status, exitCode: code, durationMs, tail })
    })
  })
  return { done, cancel: () => stop('cancelled') }
}
