import { statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tmpDir } from '../../test/helpers/tmp'
import { makeDir, makeDirSync } from './make-dir'

// Both variants must behave the same; each case runs against both.
const variants = [
  ['makeDirSync', async (p: string, mode?: number) => makeDirSync(p, { mode })],
  ['makeDir', (p: string, mode?: number) => makeDir(p, { mode })]
] as const

describe.each(variants)('%s', (_name, make) => {
  it('creates the missing folders with the mode and returns the absolute path; an existing folder is fine', async () => {
    const root = tmpDir()
    const target = join(root, 'a', 'b', 'c')
    expect(await make(target, 0o700)).toBe(target)
    expect(statSync(target).isDirectory()).toBe(true)
    if (process.platform !== 'win32') {
      expect(statSync(join(root, 'a')).mode & 0o777).toBe(0o700)
      expect(statSync(target).mode & 0o777).toBe(0o700)
    }
    expect(await make(target)).toBe(target)
  })

  it('fails with a one-line error under /proc, where recursive mkdir spins forever', async () => {
    // a spinning mkdir never settles: the test's timeout is the bound, not a clock
    for (const path of ['/proc/nope', '/proc/self/nope/deeper', '/proc/1/nope/home']) {
      await expect(make(path)).rejects.toThrow(new RegExp(`^cannot create folder ${path}: `))
    }
  })

  it('refuses a path through a file, naming the file', async () => {
    const root = tmpDir()
    writeFileSync(join(root, 'f'), 'x')
    await expect(make(join(root, 'f', 'sub'))).rejects.toThrow(
      `cannot create folder ${join(root, 'f', 'sub')}: ${join(root, 'f')} exists and is not a folder`
    )
    await expect(make(join(root, 'f'))).rejects.toThrow(/exists and is not a folder/)
  })

  it('refuses a dangling symbolic link in the way', async () => {
    const root = tmpDir()
    symlinkSync(join(root, 'gone'), join(root, 'link'))
    await expect(make(join(root, 'link', 'x'))).rejects.toThrow(
      `cannot create folder ${join(root, 'link', 'x')}: ${join(root, 'link')} exists and is not a folder`
    )
  })
})
