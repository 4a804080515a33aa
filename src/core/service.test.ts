import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { methods, type PushedEvent } from '../shared/api'
import { makeProject, tmpDir } from '../../test/helpers/tmp'
import { createService } from './root'
import type { MusterService } from './service-types'

let service: MusterService | null = null
afterEach(async () => {
  await service?.close()
  service = null
})

async function start(watch = false): Promise<MusterService> {
  service = await createService({ home: tmpDir(), transport: 'http', watch, debounceMs: 30 })
  return service
}

describe('service', () => {
  it('rejects input that fails the contract, with a one-line message and a code', async () => {
    const s = await start()
    await expect(s.call('projects.add', { path: '' })).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(/path/)
    })
    await expect(s.call('projects.add', { path: '/x', extra: 1 })).rejects.toMatchObject({ code: 'invalid_input' })
    await expect(s.call('settings.update', { operatorId: 'has space' })).rejects.toMatchObject({
      message: expect.stringMatching(/single token/)
    })
    await expect(s.call('nope' as never, {})).rejects.toMatchObject({ code: 'invalid_input' })
  })

  it('registers a project and returns its parsed status, valid against the output schema', async () => {
    const s = await start()
    const root = makeProject(tmpDir(), 'muse', {
      build: '<!-- L0: v2.1.0 | P0 ship | QA PASS, 2 pending -->\n# Build\n',
      ops: '# Ops without L0\n'
    })
    const events: PushedEvent[] = []
    s.subscribe((e) => events.push(e))
    await s.call('projects.add', { path: root })
    expect(events.map((e) => e.name)).toEqual(['projects.changed'])
    const status = await s.call('fleet.status', {})
    expect(methods['fleet.status'].output.parse(status)).toEqual(status)
    expect(status).toHaveLength(1)
    const [p] = status
    expect(p!.roles.map((r) => [r.role, r.l0?.version ?? null, r.lines])).toEqual([
      ['build', 'v2.1.0', 2],
      ['ops', null, 1]
    ])
    expect(p!.findings).toContainEqual({ code: 'no-l0', level: 'error', role: 'ops', message: 'no L0 status line' })
    await expect(s.call('fleet.status', { project: 'other' })).rejects.toMatchObject({ code: 'not_found' })
  })

  it('pushes fleet.changed when a role file changes and serves the new L0 afterwards', async () => {
    const s = await start(true)
    const root = makeProject(tmpDir(), 'dya', { gm: '<!-- L0: v1.0.0 | old | a -->\n' })
    await s.call('projects.add', { path: root })
    expect((await s.call('fleet.status', {}))[0]!.roles[0]!.l0!.topPriority).toBe('old')
    const changed = new Promise<PushedEvent>((resolve) => s.subscribe((e) => e.name === 'fleet.changed' && resolve(e)))
    await new Promise((r) => setTimeout(r, 200))
    writeFileSync(join(root, '.muse/gm.md'), '<!-- L0: v1.1.0 | new | b -->\n')
    const event = await changed
    expect(event.payload).toMatchObject({ project: 'dya', paths: ['.muse/gm.md'] })
    expect((await s.call('fleet.status', {}))[0]!.roles[0]!.l0).toMatchObject({ version: 'v1.1.0', topPriority: 'new' })
  })

  it('memory search sees a daily log written by an agent after the previous search (watch mode)', async () => {
    const s = await start(true)
    const root = makeProject(tmpDir(), 'mem', { build: '<!-- L0: v1 | a | b -->\n' })
    const { mkdirSync } = await import('node:fs')
    mkdirSync(join(root, 'memory'))
    writeFileSync(join(root, 'memory/2026-12-01.md'), '# 2026-12-01\n\n## [BUILD] Session 1\n- 修复索引超时\n')
    await s.call('projects.add', { path: root })
    expect((await s.call('muse.memorySearch', { project: 'mem', query: '索引超时', scope: 'all' })).hits).toHaveLength(1)
    expect((await s.call('muse.memorySearch', { project: 'mem', query: '缓存失效', scope: 'all' })).hits).toHaveLength(0)
    await new Promise((r) => setTimeout(r, 200))
    const changed = new Promise<void>((resolve) => s.subscribe((e) => e.name === 'fleet.changed' && resolve()))
    writeFileSync(join(root, 'memory/2026-12-02.md'), '# 2026-12-02\n\n## [QA] Session 1\n- 缓存失效复现\n')
    await changed
    expect((await s.call('muse.memorySearch', { project: 'mem', query: '缓存失效', scope: 'all' })).hits).toHaveLength(1)
  })

  it('reports a project whose folder disappeared instead of failing', async () => {
    const s = await start()
    const parent = tmpDir()
    const root = makeProject(parent, 'atlas', { ops: '' })
    await s.call('projects.add', { path: root })
    const { rmSync } = await import('node:fs')
    rmSync(root, { recursive: true })
    const [p] = await s.call('fleet.status', {})
    expect(p).toMatchObject({ exists: false, roles: [] })
    expect(p!.findings[0]!.message).toMatch(/missing/)
  })

  it('reports a project whose .muse became a file as missing, and one with an empty .muse as having no roles', async () => {
    const s = await start()
    const parent = tmpDir()
    const a = makeProject(parent, 'atlas', { ops: '' })
    const b = makeProject(parent, 'borealis', { ops: '' })
    await s.call('projects.add', { path: a })
    await s.call('projects.add', { path: b })
    const { rmSync } = await import('node:fs')
    rmSync(join(a, '.muse'), { recursive: true })
    writeFileSync(join(a, '.muse'), 'not a folder')
    rmSync(join(b, '.muse', 'ops.md'))
    const [pa, pb] = await s.call('fleet.status', {})
    expect(pa).toMatchObject({ name: 'atlas', exists: false, roles: [], findings: [{ code: 'missing' }] })
    expect(pb).toMatchObject({ name: 'borealis', exists: true, roles: [], findings: [{ code: 'no-roles' }] })
  })

  it('keeps settings in the state DB', async () => {
    const home = tmpDir()
    service = await createService({ home, transport: 'ipc', watch: false })
    expect(await service.call('settings.get', {})).toEqual({ theme: 'system', operatorId: 'desk-muster', operatorRoles: [] })
    await service.call('settings.update', { theme: 'dark' })
    await service.close()
    service = await createService({ home, transport: 'ipc', watch: false })
    expect((await service.call('settings.get', {})).theme).toBe('dark')
    expect((await service.call('app.info', {})).transport).toBe('ipc')
  })
})
