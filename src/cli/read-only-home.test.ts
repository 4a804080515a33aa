import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tmpDir } from '../../test/helpers/tmp'
import { openToChild, runCliUnprivileged } from '../../test/helpers/unprivileged'
import { createService } from '../core/root'

describe('a Muster home that cannot be written', () => {
  it('reads still work; a command that must write names the state DB and why', { timeout: 240_000 }, async () => {
    const root = tmpDir()
    openToChild(root)
    const home = join(root, 'home')
    const project = join(root, 'proj')
    mkdirSync(join(project, '.muse'), { recursive: true })
    writeFileSync(join(project, '.muse', 'build.md'), '<!-- L0: v1.0 | build | read-only home -->\n# Build\n')
    mkdirSync(join(root, 'other', '.muse'), { recursive: true })
    const service = await createService({ home, transport: 'http', watch: false })
    await service.call('projects.add', { path: project, name: 'proj' })
    await service.close()
    // the home belongs to root: for the unprivileged child it is a read-only folder with read-only files
    chmodSync(home, 0o755)
    chmodSync(join(home, 'muster.sqlite3'), 0o644)
    const env = { HOME: root, MUSTER_HOME: '' }
    const list = await runCliUnprivileged(['projects', 'list', '--home', home], env)
    expect(list.err).toBe('')
    expect(list.code).toBe(0)
    expect(list.out).toContain('proj')
    // a read that would store its parse in the state DB's cache keeps it in memory instead
    const roles = await runCliUnprivileged(['roles', '--project', 'proj', '--home', home], env)
    expect(roles).toMatchObject({ code: 0, err: '' })
    expect(roles.out).toContain('read-only home')
    const add = await runCliUnprivileged(['projects', 'add', join(root, 'other'), '--name', 'other', '--home', home], env)
    expect(add.code).toBe(1)
    expect(add.err).toMatch(/^muster: cannot run projects\.add: .*muster\.sqlite3.*cannot be written \(.+\)\n$/)
  })
})
