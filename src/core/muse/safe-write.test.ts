import { chmodSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tmpDir } from '../../../test/helpers/tmp'
import { safeEdit } from './safe-write'

const append = (s: string) => (t: string) => t + s

describe('safeEdit', () => {
  it('redoes the edit on the new content when the file changes between read and rename', async () => {
    const f = join(tmpDir(), 'a.md')
    writeFileSync(f, 'one\n')
    let calls = 0
    const r = await safeEdit(f, append('mine\n'), {
      hooks: {
        beforeRename: (p, attempt) => {
          calls++
          if (attempt === 1) writeFileSync(p, 'one\nagent\n')
        }
      }
    })
    expect(calls).toBe(2)
    expect(r.changed).toBe(true)
    expect(readFileSync(f, 'utf8')).toBe('one\nagent\nmine\n')
    expect(readdirSync(join(f, '..'))).toEqual(['a.md'])
  })

  it('reports a conflict after bounded retries and leaves the agent edit alone', async () => {
    const f = join(tmpDir(), 'a.md')
    writeFileSync(f, 'x\n')
    let n = 0
    await expect(safeEdit(f, append('mine\n'), { attempts: 3, hooks: { beforeRename: (p) => writeFileSync(p, `agent ${++n}\n`) } })).rejects.toMatchObject({ code: 'conflict' })
    expect(readFileSync(f, 'utf8')).toBe('agent 3\n')
    expect(readdirSync(join(f, '..'))).toEqual(['a.md'])
  })

  it('keeps BOM and CRLF byte for byte', async () => {
    const f = join(tmpDir(), 'a.md')
    writeFileSync(f, Buffer.from('\uFEFFa\r\nb\r\n', 'utf8'))
    await safeEdit(f, (t) => t.replace('b\r\n', 'b\r\nc\r\n'))
    expect(readFileSync(f)).toEqual(Buffer.from('\uFEFFa\r\nb\r\nc\r\n', 'utf8'))
  })

  it('keeps the file mode', async () => {
    const f = join(tmpDir(), 'a.md')
    writeFileSync(f, 'x')
    chmodSync(f, 0o640)
    await safeEdit(f, append('y'))
    expect(statSync(f).mode & 0o777).toBe(0o640)
    expect(readFileSync(f, 'utf8')).toBe('xy')
  })

  it('refuses a read-only file with a clear error and leaves it unchanged', async () => {
    const f = join(tmpDir(), 'a.md')
    writeFileSync(f, 'x\n')
    chmodSync(f, 0o444)
    await expect(safeEdit(f, append('y'))).rejects.toThrow(/read-only: not changed/)
    expect(readFileSync(f, 'utf8')).toBe('x\n')
    chmodSync(f, 0o644)
  })

  it('a file deleted mid-edit is a clear error; nothing is created or left behind', async () => {
    const dir = tmpDir()
    const f = join(dir, 'a.md')
    writeFileSync(f, 'x\n')
    await expect(safeEdit(f, append('y'), { hooks: { beforeRename: (p) => rmSync(p) } })).rejects.toThrow(/deleted while Muster was editing/)
    expect(existsSync(f)).toBe(false)
    expect(readdirSync(dir)).toEqual([])
  })

  it('missing file: not_found unless create is asked; create does not clobber a racing creator', async () => {
    const dir = tmpDir()
    await expect(safeEdit(join(dir, 'n.md'), append('x'))).rejects.toMatchObject({ code: 'not_found' })
    const f = join(dir, 'c.md')
    const r = await safeEdit(f, (t) => (t || '# head\n') + 'entry\n', { create: true, hooks: { beforeRename: (p, a) => void (a === 1 && writeFileSync(p, '# theirs\n')) } })
    expect(r.created).toBe(false)
    expect(readFileSync(f, 'utf8')).toBe('# theirs\nentry\n')
  })

  it('refuses files that are not valid UTF-8 instead of corrupting them', async () => {
    const f = join(tmpDir(), 'a.md')
    writeFileSync(f, Buffer.from([0x61, 0xff, 0x0a]))
    await expect(safeEdit(f, append('y'))).rejects.toThrow(/not valid UTF-8/)
    expect(readFileSync(f)).toEqual(Buffer.from([0x61, 0xff, 0x0a]))
  })

  it('a null edit writes nothing', async () => {
    const f = join(tmpDir(), 'a.md')
    writeFileSync(f, 'x')
    const before = statSync(f).mtimeMs
    expect(await safeEdit(f, () => null)).toMatchObject({ changed: false })
    expect(statSync(f).mtimeMs).toBe(before)
  })
})
