import { createHash } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tmpDir } from '../../test/helpers/tmp'
import { chatAppendArgs } from '../../test/helpers/cli-args'
import { openToChild, runCliUnprivileged } from '../../test/helpers/unprivileged'
import { createHub, REPLICA_FILENAME, type HubFile } from '../core/hub/store/schema'
import { appendEvent } from '../core/hub/store/writer'

const restore: (() => void)[] = []
afterEach(() => {
  while (restore.length) restore.pop()!()
})

/** A palace written by an older MemPalace (no replica.json), two events, its writer closed. */
function palaceWithEvents(): { root: string; palace: string; env: Record<string, string> } {
  const root = tmpDir()
  openToChild(root)
  const home = join(root, 'home')
  mkdirSync(home)
  openToChild(home)
  const palace = join(root, 'palace')
  const hub = createHub(palace)
  for (const body of ['one', 'two'])
    appendEvent(hub.db, hub.replicaId, { type: 'chat.message', stream: 's', room: 'rooms', from_agent: 'mac-claude', to_agent: '*', body })
  hub.close()
  rmSync(join(palace, REPLICA_FILENAME))
  chmodSync(palace, 0o755)
  restore.push(() => chmodSync(palace, 0o755)) // so the tmp cleanup can remove it
  return { root, palace, env: { HOME: home, MUSTER_HOME: join(home, '.muster') } }
}

/** Every entry of the palace folder with its mode and content hash (what a refused write must not change). */
function snapshot(palace: string, ignore: RegExp = /-(wal|shm)$/): Record<string, string> {
  const out: Record<string, string> = { '.': (statSync(palace).mode & 0o7777).toString(8) }
  for (const name of readdirSync(palace)
    .filter((n) => !ignore.test(n))
    .sort()) {
    const file = join(palace, name)
    out[name] = `${(statSync(file).mode & 0o7777).toString(8)} ${createHash('sha256').update(readFileSync(file)).digest('hex')}`
  }
  return out
}

const list = (env: Record<string, string>, palace: string) => runCliUnprivileged(['events', 'list', '--palace', palace, '--json'], env)
const append = (env: Record<string, string>, palace: string) =>
  runCliUnprivileged(chatAppendArgs('win-codex', '--palace', palace, '--body', 'three', '--json'), env)

describe('a hub Muster may read but not write', () => {
  it('in a read-only folder: reads work (no -shm can be created), writes are refused clearly and change nothing', async () => {
    const { palace, env } = palaceWithEvents()
    expect(readdirSync(palace).sort()).toEqual(['logstream.sqlite3']) // a clean close left no -wal/-shm
    chmodSync(palace, 0o555)
    const before = snapshot(palace, /^$/)
    const read = await list(env, palace)
    expect(read.err).toBe('')
    expect(read.code).toBe(0)
    expect(JSON.parse(read.out).events.map((e: { body: string }) => e.body)).toEqual(['one', 'two'])
    const refused = await append(env, palace)
    expect(refused.code).toBe(1)
    expect(JSON.parse(refused.out).error).toMatch(
      /^hub .*logstream\.sqlite3 is read-only \(its palace folder is not writable: EACCES\): writes are refused$/
    )
    expect(snapshot(palace, /^$/)).toEqual(before) // no replica.json, no -wal, no mode change
    // Registered, it shows as read-only with the reason (what the UI uses to disable write actions).
    const added = await runCliUnprivileged(['hubs', 'add', palace, '--name', 'ro', '--json'], env)
    expect(added.code).toBe(0)
    const hubs = JSON.parse((await runCliUnprivileged(['hubs', 'list', '--json'], env)).out)
    expect(hubs.hubs[0]).toMatchObject({
      name: 'ro',
      exists: true,
      read_only: true,
      read_only_reason: 'its palace folder is not writable: EACCES'
    })
  })

  it('in a read-only folder while a writer has it open: the reader sees the commits still in the -wal', async () => {
    const { palace, env } = palaceWithEvents()
    const writer: HubFile = createHub(palace)
    restore.push(() => writer.close())
    writer.db.pragma('wal_autocheckpoint = 0') // keep the new row in the -wal file, not yet in the main file
    appendEvent(writer.db, writer.replicaId, {
      type: 'chat.message',
      stream: 's',
      room: 'rooms',
      from_agent: 'mac-claude',
      body: 'in the wal'
    })
    expect(statSync(join(palace, 'logstream.sqlite3-wal')).size).toBeGreaterThan(0)
    chmodSync(palace, 0o555)
    const read = await list(env, palace)
    expect(read.code).toBe(0)
    expect(JSON.parse(read.out).events.map((e: { body: string }) => e.body)).toEqual(['one', 'two', 'in the wal'])
  })

  it('on a read-only hub file: reads work, writes are refused and the file is untouched', async () => {
    const { palace, env } = palaceWithEvents()
    chmodSync(palace, 0o777)
    chmodSync(join(palace, 'logstream.sqlite3'), 0o444)
    const before = snapshot(palace)
    const read = await list(env, palace)
    expect(read.code).toBe(0)
    expect(JSON.parse(read.out).events).toHaveLength(2)
    const refused = await append(env, palace)
    expect(JSON.parse(refused.out).error).toMatch(/is read-only \(the hub file is not writable: EACCES\): writes are refused$/)
    expect(snapshot(palace)).toEqual(before)
    expect(existsSync(join(palace, REPLICA_FILENAME))).toBe(false)
  })
})
