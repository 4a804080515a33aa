import { renameSync, rmSync, unlinkSync, writeFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { makeProject, tmpDir } from '../../../test/helpers/tmp'
import { FleetWatcher, type ProjectChange } from './watcher'

let watcher: FleetWatcher | null = null
afterEach(async () => {
  await watcher?.close()
  watcher = null
})

/** Starts a watcher on the given projects and collects its change bursts. */
async function watchProjects(projects: { name: string; path: string }[]): Promise<ProjectChange[]> {
  const changes: ProjectChange[] = []
  watcher = new FleetWatcher({ debounceMs: 40, onChange: (c) => changes.push(c) })
  watcher.sync(projects)
  await watcher.whenReady()
  await new Promise((r) => setTimeout(r, 100))
  return changes
}

async function until(check: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting for a change')
    await new Promise((r) => setTimeout(r, 20))
  }
}

describe('FleetWatcher', () => {
  it('reports a burst of edits at most twice: leading edge, then one trailing report', async () => {
    const root = makeProject(tmpDir(), 'muse', { build: 'a\n' })
    const changes = await watchProjects([{ name: 'muse', path: root }])
    for (let i = 0; i < 5; i++) writeFileSync(join(root, '.muse/build.md'), `edit ${i}\n`)
    await until(() => changes.length > 0)
    await new Promise((r) => setTimeout(r, 150))
    expect(changes.length).toBeLessThanOrEqual(2)
    expect(new Set(changes.flatMap((c) => c.paths))).toEqual(new Set(['.muse/build.md']))
    expect(changes.every((c) => c.project === 'muse')).toBe(true)
  })

  it('sees editors saving by rename, new and deleted role files, and memory logs', async () => {
    const root = makeProject(tmpDir(), 'dya', { gm: 'a\n', qa: 'b\n' })
    mkdirSync(join(root, 'memory'))
    const changes = await watchProjects([{ name: 'dya', path: root }])
    writeFileSync(join(root, '.muse/.gm.md.swp'), 'new')
    renameSync(join(root, '.muse/.gm.md.swp'), join(root, '.muse/gm.md'))
    await until(() => changes.some((c) => c.paths.includes('.muse/gm.md')))
    writeFileSync(join(root, '.muse/ops.md'), '<!-- L0: v1 | x | y -->\n')
    await until(() => changes.some((c) => c.paths.includes('.muse/ops.md')))
    unlinkSync(join(root, '.muse/qa.md'))
    await until(() => changes.some((c) => c.paths.includes('.muse/qa.md')))
    writeFileSync(join(root, 'memory/2026-12-02.md'), '## [BUILD] Session 1\n')
    await until(() => changes.some((c) => c.paths.includes('memory/2026-12-02.md')))
  })

  it('ignores files outside .muse/ and memory/', async () => {
    const root = makeProject(tmpDir(), 'atlas', { ops: 'a\n' })
    const changes = await watchProjects([{ name: 'atlas', path: root }])
    writeFileSync(join(root, 'README.md'), 'x')
    mkdirSync(join(root, 'src'))
    writeFileSync(join(root, 'src/index.ts'), 'x')
    await new Promise((r) => setTimeout(r, 300))
    expect(changes).toEqual([])
  })

  it('reports a project folder that disappears, and stops after sync() drops it', async () => {
    const parent = tmpDir()
    const root = makeProject(parent, 'gone', { build: 'a\n' })
    const keep = makeProject(parent, 'kept', { build: 'a\n' })
    const changes = await watchProjects([
      { name: 'gone', path: root },
      { name: 'kept', path: keep }
    ])
    rmSync(root, { recursive: true, force: true })
    await until(() => changes.some((c) => c.project === 'gone'))
    watcher!.sync([{ name: 'kept', path: keep }])
    changes.length = 0
    makeProject(parent, 'gone', { build: 'again\n' })
    writeFileSync(join(keep, '.muse/build.md'), 'b\n')
    await until(() => changes.length > 0)
    await new Promise((r) => setTimeout(r, 150))
    expect(changes.every((c) => c.project === 'kept')).toBe(true)
  })
})
