/**
 * Stopping edits (issue 36, point 4): an edit that has not swapped its version in yet stops at its
 * next step with a clear error and changes nothing, leaving no temp file; one that has finishes.
 * The stop is staged with the edit's own hooks (before the swap, after the install), not timing.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tmpDir } from '../../../test/helpers/tmp'
import { safeEdit } from './safe-write'
import { lateWritesSettled } from './safe-write-keeper'
import { stopEdits } from './safe-write-stop'

function file(): { dir: string; path: string } {
  const dir = tmpDir()
  const path = join(dir, 'build.md')
  writeFileSync(path, '# Build\n\nline one\n')
  return { dir, path }
}

describe('stopping edits', () => {
  it('an edit stopped before its swap changes nothing and leaves no temp file', async () => {
    const { dir, path } = file()
    const edit = safeEdit(path, (t) => (t.includes('added') ? null : t + 'added\n'), {
      within: dir,
      hooks: { beforeRename: () => stopEdits() }
    })
    await expect(edit).rejects.toMatchObject({ code: 'unavailable', message: 'Muster is stopping: build.md was not changed; try it again' })
    expect(readFileSync(path, 'utf8')).toBe('# Build\n\nline one\n')
    await lateWritesSettled()
    expect(readdirSync(dir)).toEqual(['build.md'])
  })

  it('an edit stopped after its install finishes, and says it changed the file', async () => {
    const { dir, path } = file()
    const done = await safeEdit(path, (t) => (t.includes('added') ? null : t + 'added\n'), {
      within: dir,
      hooks: { afterInstall: () => stopEdits() }
    })
    expect(done.changed).toBe(true)
    expect(readFileSync(path, 'utf8')).toBe('# Build\n\nline one\nadded\n')
    // an edit started after the stop runs as usual
    await safeEdit(path, (t) => (t.includes('again') ? null : t + 'again\n'), { within: dir })
    expect(readFileSync(path, 'utf8')).toBe('# Build\n\nline one\nadded\nagain\n')
    await lateWritesSettled()
  })
})
