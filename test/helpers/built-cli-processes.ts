/** The built `muster` started in processes by a test file, and ended after it. */
import type { ChildProcess } from 'node:child_process'
import { afterAll, beforeAll } from 'vitest'
import { builtCli } from './built-cli'
import { startNode, type Started } from './child-run'

/**
 * For a file whose tests start the built `muster`: `start(args, stdin)` runs it in its own process
 * (no background refresh), and every process it started is sent SIGTERM after the file's tests.
 */
export function builtCliStarter(): (args: string[], stdin?: string) => Started {
  let bin = ''
  const procs: ChildProcess[] = []
  beforeAll(() => {
    bin = builtCli()
  }, 240_000)
  afterAll(() => {
    for (const p of procs) p.kill('SIGTERM')
  })
  return (args, stdin = '') => {
    const started = startNode([bin, ...args], stdin, { MUSTER_NO_BACKGROUND: '1' })
    procs.push(started.proc)
    return started
  }
}
