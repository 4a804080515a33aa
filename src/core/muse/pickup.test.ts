import { chmodSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tmpDir, writeTree } from '../../../test/helpers/tmp'
import { createService } from '../root'
import { setDefaultSafeWriteHooks } from './safe-write'

const STRATEGY = '<!-- L0: v1.0 | s | f -->\n# Strategy\n\n## 📡 战略指令队列\n\n📡 **S010→HQ/BUILD**: 🟡 **Ship it**\n> now\n'
const BUILD = '<!-- L0: v1.0 | b | f -->\n# Build\n\n## 📡 战略指令队列\n\n📡 **S011→BUILD**: 🟡 **Note to self**\n\n## Log\n- a\n'

async function setup() {
  const root = tmpDir()
  writeTree(root, { 'hq/.muse/strategy.md': STRATEGY, 'hq/.muse/build.md': BUILD })
  const service = await createService({ home: tmpDir(), transport: 'http', watch: false })
  await service.call('projects.add', { path: join(root, 'hq') })
  const muse = join(root, 'hq', '.muse')
  return { service, strategy: join(muse, 'strategy.md'), build: join(muse, 'build.md') }
}

afterEach(() => setDefaultSafeWriteHooks(undefined))

describe('pickup changes both files or neither', () => {
  it('a source that is not valid UTF-8: nothing written to either file, and the message says so', async () => {
    const { service, strategy, build } = await setup()
    const bad = Buffer.concat([Buffer.from(STRATEGY), Buffer.from([0xff, 0x0a])])
    writeFileSync(strategy, bad)
    await expect(service.call('muse.pickup', { project: 'hq', id: 'S010', target: 'HQ/BUILD' })).rejects.toMatchObject({
      code: 'invalid_input',
      message: 'pickup of S010→HQ/BUILD failed: strategy.md is not valid UTF-8; nothing changed'
    })
    expect(readFileSync(strategy)).toEqual(bad)
    expect(readFileSync(build, 'utf8')).toBe(BUILD)
    await service.close()
  })

  it('when the source edit fails after the receipt was written, the receipt is removed again exactly', async () => {
    const { service, strategy, build } = await setup()
    let fired = false
    setDefaultSafeWriteHooks({
      // an agent corrupts the source right after the receipt lands
      afterInstall: (p) =>
        void (p === build && !fired && (fired = true) && writeFileSync(strategy, Buffer.from([0xff, 0x0a]), { flag: 'a' }))
    })
    await expect(service.call('muse.pickup', { project: 'hq', id: 'S010', target: 'HQ/BUILD' })).rejects.toMatchObject({
      message:
        'pickup of S010→HQ/BUILD failed: strategy.md is not valid UTF-8; the receipt written to hq/.muse/build.md was removed again: nothing changed'
    })
    expect(readFileSync(build, 'utf8')).toBe(BUILD)
    expect(readFileSync(strategy)).toEqual(Buffer.concat([Buffer.from(STRATEGY), Buffer.from([0xff, 0x0a])]))
    await service.close()
  })

  it('when the receipt cannot be removed either, the message says where it is', async () => {
    const { service, strategy, build } = await setup()
    setDefaultSafeWriteHooks({
      afterInstall: (p) => {
        if (p !== build) return
        writeFileSync(strategy, Buffer.from([0xff, 0x0a]), { flag: 'a' })
        chmodSync(build, 0o444)
      }
    })
    const err = await service.call('muse.pickup', { project: 'hq', id: 'S010', target: 'HQ/BUILD' }).catch((e: Error) => e)
    chmodSync(build, 0o644)
    expect((err as Error).message).toMatch(
      /^pickup of S010→HQ\/BUILD failed: strategy\.md is not valid UTF-8; the receipt written to hq\/\.muse\/build\.md could not be removed again \(.*build\.md is read-only: not changed\): remove its "### S010→HQ\/BUILD \(…\) — ✅ 已接收 \d{4}-\d\d-\d\d \d\d:\d\d" block by hand$/
    )
    expect(readFileSync(build, 'utf8')).toContain('### S010→HQ/BUILD')
    await service.close()
  })

  it('a pickup within one file is one edit; done twice it is already done', async () => {
    const { service, build } = await setup()
    const r = await service.call('muse.pickup', { project: 'hq', id: 'S011', target: 'BUILD' })
    expect(r.outcome).toBe('picked-up')
    const text = readFileSync(build, 'utf8')
    expect(text).toMatch(/📡 \*\*S011→BUILD\*\*: ✅ \*\*Note to self\*\* — 已传递 /)
    expect(text).toMatch(/### S011→HQ\/BUILD \(\d{4}-\d\d-\d\d\) — ✅ 已接收 /)
    expect((await service.call('muse.pickup', { project: 'hq', id: 'S011', target: 'BUILD' })).outcome).toBe('already-done')
    expect(readFileSync(build, 'utf8')).toBe(text)
    await service.close()
  })

  it('both files written on success', async () => {
    const { service, strategy, build } = await setup()
    expect((await service.call('muse.pickup', { project: 'hq', id: 'S010', target: 'HQ/BUILD' })).outcome).toBe('picked-up')
    expect(readFileSync(strategy, 'utf8')).toMatch(/S010→HQ\/BUILD\*\*: ✅ \*\*Ship it\*\* — 已传递 /)
    expect(readFileSync(build, 'utf8')).toMatch(/### S010→HQ\/BUILD \(\d{4}-\d\d-\d\d\) — ✅ 已接收 [^\n]*\n> \*\*Ship it\*\*\n> now\n/)
    await service.close()
  })
})
