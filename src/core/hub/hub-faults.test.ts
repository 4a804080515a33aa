import { createHash } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tmpDir } from '../../../test/helpers/tmp'
import { createService } from '../root'
import type { MusterService } from '../service-types'
import { createHub } from './store/schema'

const services: MusterService[] = []
afterEach(async () => {
  while (services.length) await services.pop()!.close()
})
async function service(): Promise<MusterService> {
  const s = await createService({ home: tmpDir(), transport: 'http', watch: false })
  services.push(s)
  return s
}

/** The folder's entries with modes and content hashes (what a refused write must leave alone). */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = { '.': (statSync(dir).mode & 0o7777).toString(8) }
  for (const name of readdirSync(dir).sort()) {
    const file = join(dir, name)
    out[name] = `${(statSync(file).mode & 0o7777).toString(8)} ${createHash('sha256').update(readFileSync(file)).digest('hex')}`
  }
  return out
}

const event = { type: 'chat.message', stream: 'project/x', room: 'rooms', body: 'hi' }

describe('a refused hub write changes nothing', () => {
  it('a corrupt hub: the append fails clearly; no replica.json, the folder keeps its mode', async () => {
    const s = await service()
    const palace = join(tmpDir(), 'palace')
    mkdirSync(palace)
    chmodSync(palace, 0o755)
    writeFileSync(join(palace, 'logstream.sqlite3'), 'not a database, just text '.repeat(300))
    const before = snapshot(palace)
    await expect(s.call('hub.append', { palace, ...event })).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(/is not a readable SQLite database \(corrupt\?\)/)
    })
    await expect(
      s.call('hub.taskCreate', { palace, project: 'x', to_agent: 'b', goal: 'g', branch: 'main', base_commit: 'abcdef1', done: 'd' })
    ).rejects.toThrow(/corrupt/)
    expect(snapshot(palace)).toEqual(before)
  })

  it('a corrupt replica.json is refused before the hub file is created', async () => {
    const s = await service()
    const palace = join(tmpDir(), 'palace')
    mkdirSync(palace)
    writeFileSync(join(palace, 'replica.json'), '{oops')
    const before = snapshot(palace)
    await expect(s.call('hub.append', { palace, ...event })).rejects.toThrow(/replica\.json is corrupt/)
    expect(snapshot(palace)).toEqual(before)
  })

  it('bad input to a palace with no hub yet creates no folder, file or replica id', async () => {
    const s = await service()
    const palace = join(tmpDir(), 'new-palace')
    await expect(s.call('hub.append', { palace, ...event, type: 'Bad Type' })).rejects.toThrow(/is not a valid event type/)
    await expect(s.call('hub.ack', { palace, event_id: 'evt_x', status: 'done' })).rejects.toThrow("status='done' is not one of")
    await expect(s.call('hub.ack', { palace, event_id: 'evt_x' })).rejects.toMatchObject({
      code: 'not_found',
      message: expect.stringMatching(/^no hub at /)
    })
    await expect(
      s.call('hub.taskCreate', { palace, project: 'x', to_agent: 'b', goal: ' ', branch: 'main', base_commit: 'abcdef1', done: 'd' })
    ).rejects.toThrow('task goal must not be empty')
    await expect(s.call('hub.announce', { palace, stream: '\u0001' })).rejects.toThrow('stream contains control characters')
    expect(existsSync(palace)).toBe(false)
  })

  it('a write that is accepted still sets up the palace like MemPalace (0700 folder, replica.json)', async () => {
    const s = await service()
    const palace = join(tmpDir(), 'palace')
    await s.call('hub.append', { palace, ...event })
    expect(statSync(palace).mode & 0o777).toBe(0o700)
    expect(JSON.parse(readFileSync(join(palace, 'replica.json'), 'utf8')).replica_id).toMatch(/^rep_[0-9a-f]{32}$/)
  })
})

describe('a palace path that is a file', () => {
  it('hubs.add refuses it clearly (with or without create), naming the folder when given the hub file', async () => {
    const s = await service()
    const dir = tmpDir()
    const file = join(dir, 'notes.txt')
    writeFileSync(file, 'hello')
    for (const create of [true, false]) {
      await expect(s.call('hubs.add', { palace: file, create })).rejects.toMatchObject({
        code: 'invalid_input',
        message: `${file} is a file, not a folder: a hub is a palace folder holding logstream.sqlite3`
      })
    }
    await expect(s.call('hubs.add', { palace: join(file, 'deeper'), create: true })).rejects.toThrow(`${file} is a file, not a folder`)
    const palace = join(dir, 'palace')
    createHub(palace).close()
    await expect(s.call('hubs.add', { palace: join(palace, 'logstream.sqlite3') })).rejects.toThrow(`(did you mean its folder ${palace}?)`)
    await expect(s.call('hub.list', { palace: file })).rejects.toThrow('is a file, not a folder')
    expect(readFileSync(file, 'utf8')).toBe('hello')
    expect((await s.call('hubs.list', {})).hubs).toEqual([])
  })
})
