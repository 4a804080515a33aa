import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { makeProject, tmpDir } from '../../../test/helpers/tmp'
import { createHub } from '../hub/store/schema'
import { appendEvent } from '../hub/store/writer'
import { createService } from '../root'
import type { MusterService } from '../service-types'

const services: MusterService[] = []
afterEach(async () => {
  while (services.length) await services.pop()!.close()
})

describe('invocation handlers', () => {
  it('invoke.check answers with the effective chain, the rule and the BLOCKED line', async () => {
    const s = await createService({ home: tmpDir(), transport: 'http', watch: false })
    services.push(s)
    expect(await s.call('invoke.check', { chain: 'cro', target: 'cro', caller: 'cfo' })).toEqual({
      allowed: false,
      rule: 'circular',
      reason: 'circular call: cro is already in cro → cfo',
      chain: ['cro', 'cfo'],
      target: 'cro',
      warnings: [],
      blocked: '[BLOCKED: cannot invoke cro — circular call: cro is already in cro → cfo]',
      assumption: 'State assumption used instead: <the explicit assumption you make instead>'
    })
    await expect(s.call('invoke.check', { chain: 'cro', target: '', phase: 1 })).rejects.toThrow(/target is required/)
  })

  it('invoke.findings covers role files and event bodies (through the hub service), per project stream', async () => {
    const s = await createService({ home: tmpDir(), transport: 'http', watch: false })
    services.push(s)
    const parent = tmpDir()
    makeProject(parent, 'dya', { gm: '<!-- L0: v1 | a | b -->\n[CHAIN: cro → cfo → coo]\n[INVOKE:chro|hires?]\n' })
    makeProject(parent, 'atlas', { build: '<!-- L0: v1 | a | b -->\nno tags here\n' })
    await s.call('projects.scan', { dir: parent })
    const palace = join(tmpDir(), 'palace')
    await s.call('hubs.add', { palace, name: 'h', create: true })
    const hub = createHub(palace)
    const at = new Date('2026-03-01T10:00:00Z')
    const ev = appendEvent(hub.db, hub.replicaId, {
      type: 'chat.message',
      stream: 'project/dya',
      room: 'rooms',
      from_agent: 'cfo',
      to_agent: 'cro',
      body: 'need it\n[CHAIN: cro → cfo]\n[INVOKE:cro|pipeline?]',
      at
    })
    appendEvent(hub.db, hub.replicaId, {
      type: 'chat.message',
      stream: 'project/atlas',
      room: 'rooms',
      from_agent: 'ceo',
      body: '[BROADCAST:all|pivot?]',
      at
    })
    appendEvent(hub.db, hub.replicaId, {
      type: 'chat.message',
      stream: 'project/atlas',
      room: 'rooms',
      from_agent: 'cmo',
      body: '[BROADCAST:all|me too?]',
      at
    })
    hub.close()

    const all = await s.call('invoke.findings', {})
    expect(all.scanned).toEqual({ roleFiles: 2, events: 3 })
    expect(all.findings.map((f) => [f.source.kind, f.source.project ?? f.source.eventId, f.rule, f.line])).toEqual([
      ['role', 'dya', 'depth', 3],
      ['event', ev.id, 'circular', 3],
      ['event', expect.stringMatching(/^evt_/), 'broadcast', 1]
    ])
    expect(all.findings[1]!.source).toMatchObject({ hub: 'h', from: 'cfo' })
    const dya = await s.call('invoke.findings', { project: 'dya' })
    expect(dya.scanned).toEqual({ roleFiles: 1, events: 1 })
    expect(dya).toMatchObject({ errors: 2, warnings: 0 })
  })
})

describe("the operator's own sends", () => {
  it('hub writes whose body breaks a hard rule are refused and write nothing', async () => {
    const s = await createService({ home: tmpDir(), transport: 'http', watch: false })
    services.push(s)
    await s.call('hubs.add', { palace: join(tmpDir(), 'palace'), name: 'h', create: true })
    const base = { hub: 'h', type: 'chat.message', stream: 'project/x', room: 'rooms' }
    await expect(s.call('hub.append', { ...base, body: '[CHAIN: cro → cfo]\n[INVOKE:cro|again?]' })).rejects.toMatchObject({
      code: 'forbidden',
      message: 'invocation refused: line 2: INVOKE:cro blocked (circular): circular call: cro is already in cro → cfo'
    })
    const ok = await s.call('hub.append', { ...base, body: '[CHAIN: cro → cfo]\n[INVOKE:cfo|burn?]' })
    await expect(s.call('hub.ack', { hub: 'h', event_id: ok.event.id, body: '[CHAIN: cfo]\n[INVOKE:cfo|me?]' })).rejects.toMatchObject({
      code: 'forbidden'
    })
    await expect(
      s.call('hub.taskCreate', {
        hub: 'h',
        project: 'x',
        to_agent: 'a',
        goal: '[CHAIN: a → b → c]\n[INVOKE:cto|ship?]',
        branch: 'b',
        base_commit: 'abcdef1',
        done: 'd'
      })
    ).rejects.toMatchObject({ code: 'forbidden' })
    expect((await s.call('hub.list', { hub: 'h' })).events.map((e) => e.id)).toEqual([ok.event.id])
  })
})
