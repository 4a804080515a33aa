import { renameSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tmpDir } from './helpers/tmp'
import { RACY_MS, fileStamp, sameFile, sameStamp, stampHolds, stampSettled, type FileStamp } from '../src/shared/file-stamp'

describe('file stamps', () => {
  it('a file replaced by a rename with the same size and times is another version', () => {
    const dir = tmpDir()
    const file = join(dir, 'a.md')
    writeFileSync(file, 'one\n')
    const at = new Date('2026-01-01T00:00:00Z')
    utimesSync(file, at, at)
    const before = fileStamp(statSync(file))
    expect(stampHolds(before, statSync(file))).toBe(true)
    writeFileSync(join(dir, 'b.md'), 'two\n')
    utimesSync(join(dir, 'b.md'), at, at)
    renameSync(join(dir, 'b.md'), file)
    const after = fileStamp(statSync(file))
    expect(after[3]).toBe(before[3])
    expect(stampHolds(before, statSync(file))).toBe(false)
    expect(sameStamp(before, after)).toBe(false)
    expect(sameFile(before, after)).toBe(false)
  })

  it('each field counts; a stamp without ctime ignores it; no file never holds', () => {
    const st = { dev: 1, ino: 2, size: 3, mtimeMs: 1000, ctimeMs: 1000 }
    const stamp = fileStamp(st)
    for (const k of ['dev', 'ino', 'size', 'mtimeMs', 'ctimeMs'] as const)
      expect(stampHolds(stamp, { ...st, [k]: st[k] + 1 }), k).toBe(false)
    expect(stampHolds(fileStamp(st, { ctime: false }), { ...st, ctimeMs: 9000 })).toBe(true)
    expect(stampHolds(stamp, undefined)).toBe(false)
    expect(sameStamp(null, null)).toBe(true)
    expect(sameStamp(stamp, null)).toBe(false)
    expect(sameStamp(stamp, fileStamp(st, { ctime: false }))).toBe(false)
  })

  it('is settled only once its mtime and ctime are RACY_MS old', () => {
    const stamp: FileStamp = [1, 2, 3, 1000, 1500]
    expect(stampSettled(stamp, 1500 + RACY_MS - 1)).toBe(false)
    expect(stampSettled(stamp, 1500 + RACY_MS)).toBe(true)
    expect(stampSettled([1, 2, 3, 1000, null], 1000 + RACY_MS)).toBe(true)
  })
})
