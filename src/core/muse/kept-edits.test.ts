import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tmpDir, writeTree } from '../../../test/helpers/tmp'
import { createService } from '../root'
import { guardsSettled } from './safe-write-guard'
import { missingLines, unionMerge } from './kept-edits'

const L0 = '<!-- L0: v1.0 | build | f -->\n'
/** What the guard kept: the version Muster installed, holding the send the agent's rewrite dropped. */
const KEPT = `${L0}## 📡 Directives\n\n📡 **S001→QA**: 🟡 **first**\n📡 **S002→QA**: 🟡 **the dropped send**\n> check the login flow\n`
/** The agent's rewrite from a read older than the send: no S002, one line of its own. */
const AGENT = `${L0}## 📡 Directives\n\n📡 **S001→QA**: 🟡 **first**\n\n## Notes\n- agent wrote this\n`
const NAME = '.build.md.muster-lost-4242-0a1b2c3d'

async function setup() {
  const root = tmpDir()
  writeTree(root, { 'p/.muse/build.md': AGENT, [`p/.muse/${NAME}`]: KEPT, 'p/.muse/qa.md': `${L0}## 🎯 TODO\n` })
  const service = await createService({ home: tmpDir(), transport: 'http', watch: false })
  await service.call('projects.add', { path: join(root, 'p') })
  return { service, dir: join(root, 'p/.muse') }
}

describe('sends kept aside', () => {
  it('are listed with the lines a merge puts back, and are a needs-you item linking to the role', async () => {
    const { service } = await setup()
    const { kept } = await service.call('muse.kept', {})
    expect(kept).toEqual([
      {
        project: 'p',
        role: 'build',
        file: 'build.md',
        name: NAME,
        since: expect.any(String),
        missing: 2,
        preview: ['📡 **S002→QA**: 🟡 **the dropped send**', '> check the login flow']
      }
    ])
    const needs = await service.call('needs.list', { kind: ['kept'] })
    expect(needs.items).toMatchObject([
      {
        kind: 'kept',
        project: 'p',
        ref: NAME,
        link: '#/role/p/build',
        detail: '2 lines to merge back: 📡 **S002→QA**: 🟡 **the dropped send**'
      }
    ])
    expect((await service.call('muse.lint', {})).findings.map((f) => f.code)).toContain('leftover-write')
    await service.close()
  })

  it('merge back: the send returns where it stood, every agent line stays, the copy and the item go', async () => {
    const { service, dir } = await setup()
    expect(await service.call('muse.keptMerge', { project: 'p', name: NAME })).toEqual({ file: 'build.md', restored: 2 })
    const text = readFileSync(join(dir, 'build.md'), 'utf8')
    expect(text).toBe(
      `${L0}## 📡 Directives\n\n📡 **S001→QA**: 🟡 **first**\n📡 **S002→QA**: 🟡 **the dropped send**\n> check the login flow\n\n## Notes\n- agent wrote this\n`
    )
    expect(existsSync(join(dir, NAME))).toBe(false)
    expect((await service.call('needs.list', { kind: ['kept'] })).items).toEqual([])
    expect((await service.call('muse.lint', {})).findings.map((f) => f.code)).not.toContain('leftover-write')
    const d = (await service.call('muse.directives', {})).directives.find((x) => x.id === 'S002')
    expect(d?.state).toBe('pending')
    // merged again: it is gone
    await expect(service.call('muse.keptMerge', { project: 'p', name: NAME })).rejects.toMatchObject({ code: 'not_found' })
    await guardsSettled()
    await service.close()
  })

  it('a copy whose lines are all back already is merged by deleting it; discard deletes without editing', async () => {
    const { service, dir } = await setup()
    writeFileSync(join(dir, 'build.md'), KEPT)
    expect(await service.call('muse.kept', { project: 'p' })).toMatchObject({ kept: [{ missing: 0, preview: [] }] })
    expect(await service.call('muse.keptMerge', { project: 'p', name: NAME })).toEqual({ file: 'build.md', restored: 0 })
    expect(readFileSync(join(dir, 'build.md'), 'utf8')).toBe(KEPT)
    writeFileSync(join(dir, NAME), KEPT)
    writeFileSync(join(dir, 'build.md'), AGENT)
    expect(await service.call('muse.keptDiscard', { project: 'p', name: NAME })).toEqual({ file: 'build.md' })
    expect(readFileSync(join(dir, 'build.md'), 'utf8')).toBe(AGENT)
    expect(existsSync(join(dir, NAME))).toBe(false)
    await guardsSettled()
    await service.close()
  })

  it('refuses anything that is not a kept copy, and changes nothing', async () => {
    const { service, dir } = await setup()
    for (const name of [
      'build.md',
      '../p/.muse/build.md',
      '.build.md.muster-4242-0a1b2c3d.tmp',
      `sub/${NAME}`,
      '.build.md.muster-aside-1-ab'
    ])
      await expect(service.call('muse.keptMerge', { project: 'p', name }), name).rejects.toMatchObject({ code: 'invalid_input' })
    await expect(service.call('muse.keptDiscard', { project: 'p', name: 'qa.md' })).rejects.toMatchObject({ code: 'invalid_input' })
    await expect(service.call('muse.keptMerge', { project: 'nope', name: NAME })).rejects.toMatchObject({ code: 'not_found' })
    expect(readFileSync(join(dir, 'build.md'), 'utf8')).toBe(AGENT)
    expect(readFileSync(join(dir, NAME), 'utf8')).toBe(KEPT)
    expect(existsSync(join(dir, 'qa.md'))).toBe(true)
    await service.close()
  })
})

describe('unionMerge', () => {
  it('keeps both sides, CRLF and a missing final newline included', () => {
    expect(unionMerge('a\r\nc\r\n', 'a\r\nb\r\nc\r\n')).toBe('a\r\nb\r\nc\r\n')
    expect(unionMerge('a\nx', 'a\nb\n')).toBe('a\nb\nx')
    expect(unionMerge('a\nb\n', 'a\n')).toBeNull()
    expect(unionMerge('a\n', 'a\n\n\n')).toBeNull()
    expect(missingLines('a\n', 'a\nb\n\nc\n')).toEqual(['b', 'c'])
  })
})
