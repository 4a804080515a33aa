import { chmodSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tmpDir, writeTree } from '../../../test/helpers/tmp'
import type { Project } from '../../shared/api'
import { detectHub } from './hub-project'
import { readMuseListing } from './role-files'

/** Registered projects for folders under `root`. */
function projects(root: string, names: string[]): Project[] {
  return names.map((name) => ({ name, path: join(root, name) }) as Project)
}

/** The hub detected with the scan's listings and without them (asking the disk for every file). */
async function both(ps: Project[]) {
  const listings = await Promise.all(ps.map((p) => readMuseListing(p.path)))
  return { listed: await detectHub(ps, null, listings), unlisted: await detectHub(ps, null) }
}

describe('detectHub with a scan listing', () => {
  it('a paths.md in another case counts only where the file system finds it, as without listings', async () => {
    const root = tmpDir()
    writeTree(root, {
      'a/.muse/build.md': 'x\n',
      'b/.muse/PATHS.md': '```\nSTRATEGY_PATH: ' + join(root, 'c', '.muse', 'strategy.md') + '\n```\n',
      'c/.muse/strategy.md': 'x\n'
    })
    const ps = projects(root, ['a', 'b', 'c', 'none'])
    const { listed, unlisted } = await both(ps)
    expect(listed).toEqual(unlisted)
    expect(listed.project).toBe('c')
  })

  it('the only project holding strategy.md, and none when its copy cannot be read', async () => {
    const root = tmpDir()
    writeTree(root, { 'hq/.muse/strategy.md': 'x\n', 'sat/.muse/build.md': 'x\n', 'sat/CLAUDE.md': 'no paths here\n' })
    const ps = projects(root, ['hq', 'sat', 'gone'])
    expect(await both(ps)).toEqual({ listed: { project: 'hq', source: 'strategy.md' }, unlisted: { project: 'hq', source: 'strategy.md' } })
    if (process.getuid?.() === 0) return // root reads any file
    chmodSync(join(root, 'hq', '.muse', 'strategy.md'), 0)
    const none = { project: null, source: 'none' }
    expect(await both(ps)).toEqual({ listed: none, unlisted: none })
  })

  it('a paths.md the listing names is read: the hub it points at wins over the strategy.md holder', async () => {
    const root = tmpDir()
    writeTree(root, {
      'hq/.muse/strategy.md': 'x\n',
      'sat/.muse/paths.md': '```\nSTRATEGY_PATH: ' + join(root, 'other', '.muse', 'strategy.md') + '\n```\n',
      'other/.muse/build.md': 'x\n'
    })
    const ps = projects(root, ['hq', 'sat', 'other'])
    expect(await both(ps)).toEqual({ listed: { project: 'other', source: 'paths.md' }, unlisted: { project: 'other', source: 'paths.md' } })
  })
})
