/**
 * Issue 23, point 7: reads work on a full disk. A real small file system (tmpfs, 4 MiB) holds the
 * Muster home and a project; it is filled to the last byte, then the built `muster` binary runs in
 * separate processes: every read answers, and a command that must write fails naming the file and
 * why, with nothing half-written. Mounting needs root with CAP_SYS_ADMIN (CI containers and this
 * machine have it); where it is not permitted the test is skipped and says so.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runBuiltCli } from '../../test/helpers/built-cli'
import { tmpDir, writeTree } from '../../test/helpers/tmp'

const mnt = join(tmpDir(), 'small-disk')
mkdirSync(mnt)
const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mnt]).status === 0
if (!mounted) console.log(`full-disk test skipped: cannot mount a tmpfs at ${mnt} (needs root with CAP_SYS_ADMIN)`)
afterAll(() => {
  if (mounted) spawnSync('umount', ['-l', mnt])
  rmSync(mnt, { recursive: true, force: true })
})

/** The built CLI in its own process. */
const muster = runBuiltCli

/** Writes zeros into `file` until the file system refuses (ENOSPC). */
function fill(file: string): void {
  const fd = openSync(file, 'w')
  const chunk = Buffer.alloc(64 * 1024)
  try {
    for (;;) writeSync(fd, chunk)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err
  }
  const byte = Buffer.alloc(1)
  try {
    for (;;) writeSync(fd, byte)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err
  } finally {
    closeSync(fd)
  }
}

describe.skipIf(!mounted)('a full disk (a real 4 MiB tmpfs filled to the last byte)', () => {
  it('reads answer; a command that must write names the file and why, nothing half-written', { timeout: 240_000 }, () => {
    const home = join(mnt, 'home')
    const project = join(mnt, 'proj')
    writeTree(project, {
      '.muse/build.md':
        '<!-- L0: v1.0 | build | full disk -->\n# Build\n\n## 📡 战略指令队列\n\n📡 **S041→PROJ/QA**: 🟡 **before the disk filled**\n',
      '.muse/qa.md': '<!-- L0: v1.0 | qa | target -->\n# QA\n'
    })
    writeTree(join(mnt, 'other'), { '.muse/ops.md': '<!-- L0: v1.0 | ops | later -->\n# Ops\n' })
    expect(muster(home, 'projects', 'add', project, '--name', 'proj').code).toBe(0)
    fill(join(mnt, 'filler'))

    const list = muster(home, 'projects', 'list')
    expect(list).toMatchObject({ code: 0, err: '' })
    expect(list.out).toContain('proj')
    const directives = muster(home, 'directives', '--json')
    expect(directives.err).toBe('')
    expect((JSON.parse(directives.out) as { directives: { id: string }[] }).directives.map((d) => d.id)).toEqual(['S041'])
    const roles = muster(home, 'roles', '--project', 'proj')
    expect(roles).toMatchObject({ code: 0, err: '' })
    expect(roles.out).toContain('build')

    const add = muster(home, 'projects', 'add', join(mnt, 'other'), '--name', 'other')
    expect(add.code).toBe(1)
    expect(add.err).toMatch(/^muster: cannot run projects\.add: .*muster\.sqlite3.*the disk is full/)

    const before = readFileSync(join(project, '.muse/build.md'), 'utf8')
    const send = muster(home, 'directive', 'send', '--project', 'proj', '--from', 'build', '--to', 'QA', '--title', 'after')
    expect(send.code).not.toBe(0)
    expect(send.err).toMatch(/cannot write .*build\.md: the disk is full/)
    expect(readFileSync(join(project, '.muse/build.md'), 'utf8')).toBe(before)
    expect(readdirSync(join(project, '.muse')).sort()).toEqual(['build.md', 'qa.md'])

    // the queue is read; its summary file cannot be written, and its temp file is not left behind
    const needs = muster(home, 'needs')
    expect(needs.code).toBe(0)
    expect(readdirSync(home).filter((n) => n.endsWith('.tmp'))).toEqual([])
  })
})
