import { spawnSync } from 'node:child_process'
import { realpathSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Project } from '../../shared/api'
import { tmpDir, writeTree } from '../../../test/helpers/tmp'
import { RoleCache, scanProjects } from './fleet-scan'
import { detectHub } from './hub-project'
import { lintFleet } from './lint'

const ROLE = '<!-- L0: v1.0 | build | ok -->\n# Build\n'

/** A pid that belonged to a process that has exited. */
const deadPid = () => spawnSync('true').pid!

async function lintBoth(projects: Project[]) {
  const scanned = await scanProjects(projects, new RoleCache())
  const fleet = { projects: scanned, hub: await detectHub(projects, null) }
  const withListing = await lintFleet(fleet, null, async () => null)
  // the same projects without the scan's listing: lint asks the disk itself
  const bare = { ...fleet, projects: scanned.map(({ listing: _listing, ...sp }) => sp) }
  return { withListing, withoutListing: await lintFleet(bare, null, async () => null) }
}

describe('lint from the scan listing of .muse/ (no second listing, no resolving every file)', () => {
  it('finds dead working files in .muse/ and memory/, a malformed paths.md and links leaving the project, as when it asks the disk', async () => {
    const root = tmpDir()
    const outside = realpathSync(tmpDir())
    const dead = deadPid()
    writeTree(root, {
      'a/.muse/build.md': ROLE,
      'a/.muse/qa.md': ROLE,
      [`a/.muse/.build.md.muster-aside-${dead}-0a1b2c3d`]: 'agent bytes\n',
      [`a/.muse/.qa.md.muster-aside-${process.pid}-0a1b2c3d`]: 'mine, alive\n',
      'a/.muse/paths.md': '```\nHUB: ../hub\nnot a pair\n```\n',
      [`a/memory/.2026-12-01.md.muster-aside-${dead}-00ff00ff`]: 'log bytes\n',
      'b/.muse/build.md': ROLE
    })
    writeFileSync(join(outside, 'growth.md'), ROLE)
    symlinkSync(join(outside, 'growth.md'), join(root, 'a/.muse/growth.md'))
    symlinkSync(join(root, 'a/.muse/build.md'), join(root, 'a/.muse/ops.md'))
    const projects: Project[] = ['a', 'b'].map((n) => ({ name: n, path: join(root, n), key: n.toUpperCase(), addedAt: '' }))
    const { withListing, withoutListing } = await lintBoth(projects)
    const codes = withListing.map((f) => `${f.project} ${f.code} ${f.file ?? ''} ${f.line ?? ''}`.trim()).sort()
    expect(codes).toEqual(['a leftover-write', 'a leftover-write', 'a paths-malformed paths.md 3', 'a symlink-outside growth.md'])
    expect(withListing.find((f) => f.code === 'leftover-write' && f.message.startsWith('memory/'))?.message).toContain(
      `memory/.2026-12-01.md.muster-aside-${dead}-00ff00ff`
    )
    expect(withoutListing).toEqual(withListing)
  })

  it('a .muse/ folder linked outside the project is one finding, not one per file', async () => {
    const root = tmpDir()
    const outside = realpathSync(tmpDir())
    writeTree(outside, { 'muse/build.md': ROLE, 'muse/qa.md': ROLE })
    writeTree(root, { 'a/README.md': '' })
    symlinkSync(join(outside, 'muse'), join(root, 'a/.muse'))
    const { withListing, withoutListing } = await lintBoth([{ name: 'a', path: join(root, 'a'), key: 'A', addedAt: '' }])
    expect(withListing.map((f) => f.code)).toEqual(['symlink-outside'])
    expect(withListing[0]!.message).toContain(`.muse resolves to ${join(outside, 'muse')}`)
    expect(withoutListing).toEqual(withListing)
  })

  it('asks git for at most 8 projects at once, while the file checks of all projects run together', async () => {
    const root = tmpDir()
    const files: Record<string, string> = {}
    for (let i = 0; i < 20; i++) files[`p${i}/.muse/build.md`] = '<!-- L0: v1.0 | build | ok -->\n'
    writeTree(root, files)
    const projects: Project[] = Array.from({ length: 20 }, (_, i) => ({
      name: `p${i}`,
      path: join(root, `p${i}`),
      key: `P${i}`,
      addedAt: ''
    }))
    const fleet = { projects: await scanProjects(projects, new RoleCache()), hub: await detectHub(projects, null) }
    let running = 0
    let most = 0
    const asked: string[] = []
    const findings = await lintFleet(fleet, null, async (dir) => {
      most = Math.max(most, ++running)
      asked.push(dir)
      await new Promise((r) => setTimeout(r, 5))
      running--
      return 'v2.0'
    })
    expect(most).toBe(8)
    expect(asked.sort()).toEqual(projects.map((p) => p.path).sort())
    expect(findings.filter((f) => f.code === 'l0-stale')).toHaveLength(20)
  })
})
