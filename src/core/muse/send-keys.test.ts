import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tmpDir, writeTree } from '../../../test/helpers/tmp'
import { createService } from '../root'
import type { MusterService } from '../service-types'
import { lateWritesSettled } from './safe-write-keeper'

let service: MusterService
let root: string
const build = () => join(root, '.muse', 'build.md')
const count = (title: string) => readFileSync(build(), 'utf8').split(`🟡 **${title}**`).length - 1

beforeAll(async () => {
  root = join(tmpDir(), 'p')
  writeTree(root, {
    '.muse/build.md': '<!-- L0: v1 | build | x -->\n# Build\n',
    '.muse/qa.md': '<!-- L0: v1 | qa | x -->\n# QA\n'
  })
  service = await createService({ home: tmpDir(), transport: 'http', watch: false })
  await service.call('projects.add', { path: root, name: 'p' })
})
afterAll(async () => {
  await lateWritesSettled()
  await service?.close()
})

describe('muse.send with an idempotency key', () => {
  it('a retry with the same key writes nothing new and answers the same directive', async () => {
    const req = { project: 'p', from: 'build', to: 'QA', title: 'ship it', body: 'now', key: 'k-1' }
    const first = await service.call('muse.send', req)
    const again = await service.call('muse.send', req)
    expect(again.id).toBe(first.id)
    expect(count('ship it')).toBe(1)
    // without a key, the same request is a second directive
    const plain = await service.call('muse.send', { ...req, key: undefined })
    expect(plain.id).not.toBe(first.id)
    expect(count('ship it')).toBe(2)
  })

  it('the same key for a different send is refused; a retry after another writer dropped the directive writes it again, same id', async () => {
    const req = { project: 'p', from: 'build', to: 'QA', title: 'second', body: '', key: 'k-2' }
    const first = await service.call('muse.send', req)
    await expect(service.call('muse.send', { ...req, title: 'other' })).rejects.toMatchObject({ code: 'conflict' })
    await lateWritesSettled()
    const text = readFileSync(build(), 'utf8')
    writeFileSync(build(), text.replace(/\n📡 \*\*S\d+→P\/QA\*\*: 🟡 \*\*second\*\*\n/u, '\n'))
    expect(count('second')).toBe(0)
    const again = await service.call('muse.send', req)
    expect(again.id).toBe(first.id)
    expect(count('second')).toBe(1)
  })
})
