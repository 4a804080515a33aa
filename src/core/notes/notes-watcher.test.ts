/**
 * The notes watcher reports a ref that moved while its watch was still being set up (a read
 * caches the notes before the watch exists), and, once watching, the moves themselves.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tmpDir } from '../../../test/helpers/tmp'
import { NotesWatcher } from './notes-watcher'

const watchers: NotesWatcher[] = []
afterEach(async () => {
  await Promise.all(watchers.splice(0).map((w) => w.close()))
})

/** Resolves with the next project reported (rejects after `ms`). */
function nextReport(reports: string[], ms = 60_000): Promise<string> {
  const started = Date.now()
  return new Promise((resolve, reject) => {
    const poll = (): void => {
      const r = reports.shift()
      if (r !== undefined) return resolve(r)
      if (Date.now() - started > ms) return reject(new Error('no report'))
      setTimeout(poll, 20)
    }
    poll()
  })
}

/** Writes a ref as git does (lock file, then rename). */
function writeRef(gitDir: string, ref: string, sha: string): void {
  const path = join(gitDir, ref)
  mkdirSync(join(path, '..'), { recursive: true })
  writeFileSync(`${path}.lock`, `${sha}\n`)
  renameSync(`${path}.lock`, path)
}

describe('NotesWatcher', () => {
  it('reports a ref moved before its watch was set up, then the moves it sees', async () => {
    const git = join(tmpDir(), '.git')
    mkdirSync(join(git, 'refs', 'heads'), { recursive: true })
    const reports: string[] = []
    const w = new NotesWatcher((p) => reports.push(p))
    watchers.push(w)
    w.add('app', git)
    writeRef(git, 'refs/notes/squad/worf', 'a'.repeat(40)) // synchronously: chokidar has not watched anything yet
    expect(await nextReport(reports)).toBe('app')
    await new Promise((r) => setTimeout(r, 500))
    reports.length = 0 // a late duplicate of the first report must not stand in for the next one
    writeRef(git, 'refs/notes/squad/data', 'b'.repeat(40))
    expect(await nextReport(reports)).toBe('app')
  }, 120_000)
})
