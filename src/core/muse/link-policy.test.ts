import {
  existsSync,
  lstatSync,
  mkdirSync,
  promises as fsp,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  symlinkSync,
  writeFileSync
} from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { tmpDir, writeTree } from '../../../test/helpers/tmp'
import { createService } from '../root'
import { writableTarget } from './link-policy'

const ROLE = (name: string) => `<!-- L0: v1.0 | ${name} | ok -->\n# ${name}\n\n## 📡 战略指令队列\n\n📡 **S001→QA**: 🟡 **hello**\n`

/** Project `p` with build.md, a role linked inside the project and one linked outside it. */
async function setup() {
  const root = tmpDir()
  const outside = realpathSync(tmpDir())
  writeTree(root, { 'p/.muse/build.md': ROLE('build'), 'p/docs/qa.md': ROLE('qa'), 'p/.muse/qa-pad.txt': '' })
  writeFileSync(join(outside, 'growth.md'), ROLE('growth'))
  symlinkSync(join(root, 'p/docs/qa.md'), join(root, 'p/.muse/qa.md'))
  symlinkSync(join(outside, 'growth.md'), join(root, 'p/.muse/growth.md'))
  const service = await createService({ home: tmpDir(), transport: 'http', watch: false })
  await service.call('projects.add', { path: join(root, 'p') })
  return { service, p: join(root, 'p'), outside }
}

describe('one symlink policy: links are read, written only when they stay inside the project', () => {
  it('role files linked inside or outside the project are listed; the outside one gets a lint finding', async () => {
    const { service, outside } = await setup()
    expect((await service.call('muse.roles', { project: 'p' })).roles.map((r) => r.role)).toEqual(['build', 'growth', 'qa'])
    const [status] = await service.call('fleet.status', { project: 'p' })
    expect(status!.roles.map((r) => r.role)).toEqual(['build', 'growth', 'qa'])
    const lint = await service.call('muse.lint', { project: 'p' })
    expect(lint.findings.filter((f) => f.code === 'symlink-outside')).toEqual([
      {
        level: 'warning',
        code: 'symlink-outside',
        project: 'p',
        role: 'growth',
        file: 'growth.md',
        line: null,
        message: `.muse/growth.md resolves to ${join(outside, 'growth.md')}, outside the project: Muster lists and reads it but never writes through it`
      }
    ])
    await service.close()
  })

  it('a send into a role linked inside the project writes the file it points to; the link stays', async () => {
    const { service, p } = await setup()
    await service.call('muse.send', { project: 'p', from: 'qa', to: 'BUILD', title: 'through the link', body: '' })
    expect(lstatSync(join(p, '.muse/qa.md')).isSymbolicLink()).toBe(true)
    expect(readFileSync(join(p, 'docs/qa.md'), 'utf8')).toContain('🟡 **through the link**')
    await service.close()
  })

  it('a send from, or a pickup into, a role linked outside is refused and changes nothing', async () => {
    const { service, p, outside } = await setup()
    await expect(service.call('muse.send', { project: 'p', from: 'growth', to: 'BUILD', title: 'x', body: '' })).rejects.toMatchObject({
      code: 'forbidden',
      message: `.muse/growth.md resolves to ${join(outside, 'growth.md')}, outside the project: Muster reads it but never writes through a link that leaves the project`
    })
    writeFileSync(join(p, '.muse/build.md'), ROLE('build').replace('S001→QA', 'S002→GROWTH'))
    await expect(service.call('muse.pickup', { project: 'p', id: 'S002', target: 'GROWTH' })).rejects.toMatchObject({
      code: 'forbidden',
      message: expect.stringMatching(/^pickup of S002→P\/GROWTH failed: .*outside the project.*; nothing changed$/)
    })
    expect(readFileSync(join(outside, 'growth.md'), 'utf8')).toBe(ROLE('growth'))
    expect(readFileSync(join(p, '.muse/build.md'), 'utf8')).toBe(ROLE('build').replace('S001→QA', 'S002→GROWTH'))
    await service.close()
  })

  it('.muse/ or memory/ linked outside: a finding each; memory writes refused', async () => {
    const root = tmpDir()
    const far = realpathSync(tmpDir())
    mkdirSync(join(far, 'muse'))
    mkdirSync(join(far, 'memory'))
    writeFileSync(join(far, 'muse', 'build.md'), ROLE('build'))
    mkdirSync(join(root, 'q'))
    symlinkSync(join(far, 'muse'), join(root, 'q', '.muse'))
    symlinkSync(join(far, 'memory'), join(root, 'q', 'memory'))
    const service = await createService({ home: tmpDir(), transport: 'http', watch: false })
    await service.call('projects.add', { path: join(root, 'q') })
    expect((await service.call('muse.roles', { project: 'q' })).roles.map((r) => r.role)).toEqual(['build'])
    const lint = await service.call('muse.lint', { project: 'q' })
    expect(lint.findings.filter((f) => f.code === 'symlink-outside').map((f) => f.message)).toEqual([
      `.muse resolves to ${join(far, 'muse')}, outside the project: Muster lists and reads it but never writes through it`,
      `memory resolves to ${join(far, 'memory')}, outside the project: Muster lists and reads it but never writes through it`
    ])
    await expect(service.call('muse.memoryWrite', { project: 'q', text: 'x' })).rejects.toMatchObject({ code: 'forbidden' })
    await expect(service.call('muse.send', { project: 'q', from: 'build', to: 'BUILD', title: 'x', body: '' })).rejects.toMatchObject({
      code: 'forbidden'
    })
    expect(readdirSync(join(far, 'memory'))).toEqual([])
    expect(readFileSync(join(far, 'muse', 'build.md'), 'utf8')).toBe(ROLE('build'))
    await service.close()
  })

  it('working files of a crashed write are reported by lint', async () => {
    const root = tmpDir()
    writeTree(root, {
      'p/.muse/build.md': ROLE('build'),
      'p/.muse/.build.md.muster-aside-4200000-0a0b0c0d': 'kept\n',
      'p/memory/.2026-03-17.md.muster-4200000-01020304.tmp': 'x'
    })
    const service = await createService({ home: tmpDir(), transport: 'http', watch: false })
    await service.call('projects.add', { path: join(root, 'p') })
    const lint = await service.call('muse.lint', { project: 'p' })
    expect(lint.findings.filter((f) => f.code === 'leftover-write').map((f) => f.message)).toEqual([
      '.muse/.build.md.muster-aside-4200000-0a0b0c0d is left from an interrupted Muster write (process 4200000): compare it with .muse/build.md, then delete it',
      'memory/.2026-03-17.md.muster-4200000-01020304.tmp is left from an interrupted Muster write (process 4200000): compare it with memory/2026-03-17.md, then delete it'
    ])
    expect((await service.call('muse.roles', { project: 'p' })).roles.map((r) => r.role)).toEqual(['build'])
    await service.close()
  })
})

describe('writableTarget while another writer swaps the file', () => {
  afterEach(() => vi.restoreAllMocks())

  it('a plain file missing for a moment (back by the time it is looked at) is the file itself, not a link to nothing', async () => {
    const p = join(tmpDir(), 'p')
    writeTree(p, { '.muse/build.md': ROLE('build') })
    const file = join(p, '.muse/build.md')
    // the stress race saw this: realpath ran in the gap of a swap, lstat after it
    const real = fsp.realpath.bind(fsp)
    vi.spyOn(fsp, 'realpath').mockImplementation(async (q, o) => {
      if (q === file) throw Object.assign(new Error(`ENOENT: ${q}`), { code: 'ENOENT' })
      return real(q, o)
    })
    expect(await writableTarget(file, p)).toBe(join(realpathSync(p), '.muse/build.md'))
  })

  it('a link inside the project whose target is renamed away and back within the grace is written through', async () => {
    const p = join(tmpDir(), 'p')
    writeTree(p, { 'docs/qa.md': ROLE('qa'), '.muse/.keep': '' })
    symlinkSync(join(p, 'docs/qa.md'), join(p, '.muse/qa.md'))
    renameSync(join(p, 'docs/qa.md'), join(p, 'docs/qa.md.aside'))
    // the other writer puts it back right after Muster found the link dangling (not on a timer, which
    // a busy machine may fire after the grace)
    const lstat = fsp.lstat.bind(fsp)
    vi.spyOn(fsp, 'lstat').mockImplementation(async (q, o) => {
      const found = await lstat(q, o)
      if (q === join(p, '.muse/qa.md') && existsSync(join(p, 'docs/qa.md.aside')))
        renameSync(join(p, 'docs/qa.md.aside'), join(p, 'docs/qa.md'))
      return found
    })
    expect(await writableTarget(join(p, '.muse/qa.md'), p)).toBe(join(realpathSync(p), 'docs/qa.md'))
  })

  it('a link whose target stays missing is refused', async () => {
    const p = join(tmpDir(), 'p')
    writeTree(p, { '.muse/.keep': '' })
    symlinkSync(join(p, 'docs/gone.md'), join(p, '.muse/qa.md'))
    await expect(writableTarget(join(p, '.muse/qa.md'), p)).rejects.toMatchObject({
      code: 'not_found',
      message: '.muse/qa.md is a link to a missing file: not written'
    })
  })
})
