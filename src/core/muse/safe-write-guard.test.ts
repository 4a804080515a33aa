/**
 * The guard of an acknowledged send (`safe-write-guard.ts`, issue 36 point 2), against writers in
 * their own processes: a renaming writer that keeps the file busy past the guard's first 3 s and
 * then renames a version read before the send (a writer frozen between its read and its rename
 * while another kept writing) gets the send merged into its version, and a writer that drops the
 * send again after each merge, more times than the guard used to merge, still finds it merged,
 * never kept aside in a `-lost-` copy beside the file.
 */
import { spawn } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tmpDir } from '../../../test/helpers/tmp'
import { safeEdit } from './safe-write'
import { lateWritesSettled } from './safe-write-keeper'

const SEND = '📡 **S042→QA**: 🟡 **the send**'

/** The send: an additive edit that returns null once its line is there. */
const addSend = (text: string): string | null => (text.includes(SEND) ? null : text + SEND + '\n')

/**
 * A writer process: `steps` is a list of [delay ms, text] renamed over `file` (temp + rename) one
 * after the other; resolves when it is done.
 */
function writer(file: string, steps: [number, string][]): Promise<void> {
  const script = `
    const fs = require('node:fs')
    const [file, steps] = [process.argv[1], JSON.parse(process.argv[2])]
    const tmp = file + '.agent.tmp'
    ;(async () => {
      for (const [ms, text] of steps) {
        await new Promise((r) => setTimeout(r, ms))
        fs.writeFileSync(tmp, text)
        fs.renameSync(tmp, file)
      }
    })()`
  const child = spawn(process.execPath, ['-e', script, file, JSON.stringify(steps)], { stdio: 'ignore' })
  return new Promise((resolve, reject) =>
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`writer exited ${code}`))))
  )
}

describe('an acknowledged send beside renaming writers in other processes', () => {
  it('a stale version renamed in after 3 s of other writes: the send is merged into it', { timeout: 120_000 }, async () => {
    const dir = tmpDir()
    const file = join(dir, 'build.md')
    const before = '# Build\n\nagent-0\n'
    writeFileSync(file, before)
    await safeEdit(file, addSend, { within: dir, guard: true })
    const withSend = readFileSync(file, 'utf8')
    // another writer keeps rewriting the file with the send in it, every 0.5 s for 4 s; then one that
    // read before the send renames its version (agent-9 added to the old read)
    const busy: [number, string][] = Array.from({ length: 8 }, (_, i) => [500, `${withSend}agent-${i + 1}\n`])
    await writer(file, [...busy, [500, `${before}agent-9\n`]])
    await lateWritesSettled()
    const text = readFileSync(file, 'utf8')
    expect(text).toContain('agent-9\n')
    expect(text.split(SEND).length - 1).toBe(1)
    expect(readdirSync(dir).filter((n) => n.includes('.muster-lost-'))).toEqual([])
  })

  it('a stale version renamed in 11 times, 4.5 s apart: merged each time, none kept aside', { timeout: 240_000 }, async () => {
    const dir = tmpDir()
    const file = join(dir, 'build.md')
    const before = '# Build\n\nagent-0\n'
    writeFileSync(file, before)
    await safeEdit(file, addSend, { within: dir, guard: true })
    // each version is built from the read before the send, each after the last merge: every rename drops it again
    let text = before
    const steps: [number, string][] = []
    for (let i = 1; i <= 11; i++) steps.push([i === 1 ? 500 : 4500, (text += `agent-${i}\n`)])
    await writer(file, steps)
    await lateWritesSettled()
    const after = readFileSync(file, 'utf8')
    expect(after).toContain('agent-11\n')
    expect(after.split(SEND).length - 1).toBe(1)
    expect(readdirSync(dir).filter((n) => n.includes('.muster-lost-'))).toEqual([])
  })
})
