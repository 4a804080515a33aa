import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tmpDir } from '../../../test/helpers/tmp'
import { canExchange, exchangeSync } from './rename-exchange'

const has = process.platform === 'linux' || process.platform === 'darwin'

describe('exchangeSync', () => {
  it.skipIf(!has)('swaps two names atomically: each name now holds the other inode', () => {
    const dir = tmpDir()
    const [a, b] = [join(dir, 'a'), join(dir, 'b')]
    writeFileSync(a, 'A')
    writeFileSync(b, 'B')
    const [ia, ib] = [statSync(a).ino, statSync(b).ino]
    expect(canExchange(a)).toBe(true)
    expect(exchangeSync(a, b)).toBe(true)
    expect([readFileSync(a, 'utf8'), readFileSync(b, 'utf8')]).toEqual(['B', 'A'])
    expect([statSync(a).ino, statSync(b).ino]).toEqual([ib, ia])
  })

  it.skipIf(!has)('a missing name is an ENOENT error, like rename', () => {
    const dir = tmpDir()
    writeFileSync(join(dir, 'a'), 'A')
    expect(() => exchangeSync(join(dir, 'a'), join(dir, 'gone'))).toThrow(expect.objectContaining({ code: 'ENOENT' }))
    expect(readFileSync(join(dir, 'a'), 'utf8')).toBe('A')
  })
})
