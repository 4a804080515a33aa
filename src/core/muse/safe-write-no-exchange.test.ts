/**
 * safeEdit where the system has no atomic exchange (Windows, some network file systems; forced
 * here with MUSTER_NO_EXCHANGE=1 before the module binds): the swap falls back to one `rename`,
 * and a version renamed over the path in its window is replaced and reported, not silent.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { renameOnce } from '../../../test/helpers/agent-rename'
import { tmpDir } from '../../../test/helpers/tmp'

process.env.MUSTER_NO_EXCHANGE = '1'

const { safeEdit } = await import('./safe-write')
const { canExchange } = await import('./rename-exchange')
const { lateWritesSettled } = await import('./safe-write-keeper')
const { replacedWrites } = await import('./safe-write-witness')

describe('safeEdit without an atomic exchange', () => {
  beforeAll(() => expect(canExchange(tmpDir())).toBe(false))

  it.skipIf(process.platform !== 'linux')(
    'a version renamed in between the final check and the rename is replaced, and reported',
    async () => {
      const dir = tmpDir()
      const f = join(dir, 'a.md')
      writeFileSync(f, '# L0\none\n')
      const before = replacedWrites.length
      await safeEdit(f, (t) => (t.includes('mine\n') ? null : t + 'mine\n'), {
        within: dir,
        hooks: { afterCheck: renameOnce(dir, '# L0\none\ntheirs\n') }
      })
      expect(readFileSync(f, 'utf8')).toBe('# L0\none\nmine\n')
      expect(replacedWrites.slice(before)).toEqual([{ path: f, at: expect.any(String) }])
      await lateWritesSettled()
      expect(readdirSync(dir)).toEqual(['a.md'])
    }
  )

  it('edits as usual', async () => {
    const dir = tmpDir()
    const f = join(dir, 'a.md')
    writeFileSync(f, 'x\n')
    for (const line of ['a\n', 'b\n']) await safeEdit(f, (t) => (t.includes(line) ? null : t + line), { within: dir })
    expect(readFileSync(f, 'utf8')).toBe('x\na\nb\n')
  })
})
