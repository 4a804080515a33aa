import { mkdirSync, realpathSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { makeProject, tmpDir } from '../../../test/helpers/tmp'
import { openStateDb } from './state-db'
import { ProjectRegistry, nameFromFolder, projectKey } from './registry'

function registry(): ProjectRegistry {
  return new ProjectRegistry(openStateDb(tmpDir()))
}

describe('ProjectRegistry', () => {
  it('adds a MUSE project with a name and an upper-case key', async () => {
    const root = makeProject(tmpDir(), 'Muse', { build: '<!-- L0: v1 | x | y -->\n' })
    const r = registry()
    const p = await r.add(root)
    expect(p).toMatchObject({ name: 'muse', key: 'MUSE', path: realpathSync(root) })
    expect(r.list().map((x) => x.name)).toEqual(['muse'])
  })

  it('refuses a folder without .muse/, a missing folder, duplicates and bad names', async () => {
    const dir = tmpDir()
    mkdirSync(join(dir, 'plain'))
    const r = registry()
    await expect(r.add(join(dir, 'plain'))).rejects.toThrow(/has no \.muse\/ folder/)
    await expect(r.add(join(dir, 'nope'))).rejects.toThrow(/no such folder/)
    const root = makeProject(dir, 'dya', { gm: '' })
    await r.add(root)
    await expect(r.add(root)).rejects.toThrow(/already registered as 'dya'/)
    const other = makeProject(join(dir, 'x'), 'dya', { gm: '' })
    await expect(r.add(other)).rejects.toThrow(/already exists/)
    await expect(r.add(other, '../etc')).rejects.toThrow(/invalid project name/)
    expect(r.list()).toHaveLength(1)
  })

  it('removes by name, case-insensitively, and reports unknown names', async () => {
    const r = registry()
    await r.add(makeProject(tmpDir(), 'atlas', { ops: '' }))
    expect(r.remove('ATLAS').name).toBe('atlas')
    expect(() => r.remove('atlas')).toThrow(/unknown project 'atlas'/)
  })

  it('scan finds nested .muse folders, skips known ones and does not descend into projects', async () => {
    const dir = tmpDir()
    makeProject(dir, 'a', { build: '' })
    makeProject(join(dir, 'group'), 'b', { qa: '' })
    makeProject(join(dir, 'a', 'sub'), 'inner', { qa: '' })
    mkdirSync(join(dir, 'node_modules', 'c', '.muse'), { recursive: true })
    const r = registry()
    const first = await r.scan(dir)
    expect(first.added.map((p) => p.name).sort()).toEqual(['a', 'b'])
    const second = await r.scan(dir)
    expect(second.added).toEqual([])
    expect(second.skipped.map((s) => s.reason)).toEqual([
      expect.stringMatching(/already registered/),
      expect.stringMatching(/already registered/)
    ])
  })

  it('changes a key: upper-cased, validated, unique, ALL reserved', async () => {
    const r = registry()
    await r.add(makeProject(tmpDir(), 'dya-web', { gm: '' }))
    await r.add(makeProject(tmpDir(), 'muse', { gm: '' }))
    expect(r.setKey('dya-web', 'dya')).toMatchObject({ name: 'dya-web', key: 'DYA' })
    expect(r.get('dya-web').key).toBe('DYA')
    expect(() => r.setKey('muse', 'DYA')).toThrow(/already used by 'dya-web'/)
    expect(() => r.setKey('muse', 'ALL')).toThrow(/reserved/)
    expect(() => r.setKey('muse', '9x')).toThrow(/invalid project key/)
    expect(() => r.setKey('muse', 'A/B')).toThrow(/invalid project key/)
    expect(() => r.setKey('ghost', 'X')).toThrow(/unknown project/)
    expect(r.get('muse').key).toBe('MUSE')
  })

  it('derives names and keys', () => {
    expect(nameFromFolder('/x/My Project')).toBe('my-project')
    expect(projectKey('dya-web')).toBe('DYA-WEB')
  })
})
