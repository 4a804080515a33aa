import { execFileSync } from 'node:child_process'
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCliWith } from '../../test/helpers/cli'
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

  it('the queue and the approvals read as they are; a hub it cannot read is never "nothing waits"', { timeout: 240_000 }, async () => {
    const root = tmpDir()
    openToChild(root)
    const home = join(root, 'home')
    const user = join(root, 'user')
    mkdirSync(user)
    openToChild(user)
    const env = { HOME: user, MUSTER_HOME: '' }
    expect((await runCliWith(home, { env, cwd: process.cwd() }, 'demo')).code).toBe(0)
    const writable = JSON.parse((await runCliWith(home, { env, cwd: process.cwd() }, 'needs', '--json')).out) as {
      count: number
      counts: { approval: number }
    }
    expect(writable.counts.approval).toBeGreaterThan(0)
    // the home and its hub belong to root: the unprivileged child can read but write neither
    execFileSync('chmod', ['-R', 'a+rX,go-w', home])
    const needs = await runCliUnprivileged(['needs', '--home', home], env)
    expect(needs.code).toBe(0)
    expect(needs.err).not.toContain('could not be read')
    expect(needs.out).toContain(`\n${writable.count} waiting · `)
    expect(needs.out).not.toContain('nothing waits')
    const approvals = await runCliUnprivileged(['approvals', 'list', '--json', '--home', home], env)
    expect(approvals).toMatchObject({ code: 0, err: '' })
    expect((JSON.parse(approvals.out) as { pending: unknown[] }).pending).toHaveLength(writable.counts.approval)
    // a hub this user cannot read at all: the totals name what they leave out
    chmodSync(join(home, 'demo', 'hub', 'logstream.sqlite3'), 0o600)
    const blind = await runCliUnprivileged(['needs', '--home', home], env)
    expect(blind.code).toBe(0)
    expect(blind.out).not.toMatch(/^nothing waits on you$|^0 waiting · /m)
    expect(blind.out).toMatch(/waiting in what could be read \(not read: hub demo\)/)
    const blindApprovals = await runCliUnprivileged(['approvals', 'list', '--home', home], env)
    expect(blindApprovals.out).toContain('nothing is waiting for you in the hubs that could be read (not read: hub demo)')
  })
})
