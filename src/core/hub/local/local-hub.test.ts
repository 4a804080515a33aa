import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { tmpDir } from '../../../../test/helpers/tmp'
import type { HubEvent } from '../../../shared/contract/hub-types'
import { EventType, Room, Status } from '../../../shared/contract/hub-vocabulary'
import { LocalHub } from './local-hub'
import { createHub } from '../store/schema'
import { appendEvent } from '../store/writer'

const hubs: LocalHub[] = []
afterEach(async () => {
  while (hubs.length) await hubs.pop()!.close()
})
function hubIn(palace = join(tmpDir(), 'palace')): LocalHub {
  const h = new LocalHub(palace)
  hubs.push(h)
  return h
}
const hubCheck = (palace: string) =>
  JSON.parse(
    spawnSync('python3', [fileURLToPath(new URL('../../../../test/hub_check.py', import.meta.url)), palace], { encoding: 'utf8' }).stdout
  ) as { ok: boolean }

const until = async (cond: () => boolean, ms = 30_000): Promise<void> => {
  const t = Date.now()
  while (!cond() && Date.now() - t < ms) await new Promise((r) => setTimeout(r, 5))
}

describe('the local hub (the hub interface over a logstream file)', () => {
  it('submitPatch stores a kind=patch artifact and appends patch.ready referencing it, like mempalace_patch_submit', async () => {
    const hub = hubIn()
    const content = 'diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b'
    const { artifact, event } = await hub.submitPatch({
      content,
      from_agent: 'win-codex',
      stream: 'project/muse',
      to_agent: 'mac-claude',
      correlation_id: 'task_x_00000001',
      branch: 'fix',
      base_commit: 'abcdef1',
      body: 'ready',
      metadata: { tests: 'green' }
    })
    expect(artifact).toMatchObject({ kind: 'patch', created_by: 'win-codex', size_bytes: Buffer.byteLength(content) })
    expect(artifact.warnings).toEqual([expect.stringMatching(/^patch content does not end with a trailing newline/)])
    expect(event).toMatchObject({
      type: EventType.patchReady,
      room: Room.patches,
      status: Status.ready,
      artifact_ids: [artifact.id],
      from_agent: 'win-codex',
      to_agent: 'mac-claude',
      correlation_id: 'task_x_00000001',
      branch: 'fix',
      base_commit: 'abcdef1',
      metadata: { tests: 'green' }
    })
    const stored = await hub.getArtifact(artifact.id)
    expect(stored).toMatchObject({ content, metadata: { tests: 'green' }, sha256: artifact.sha256 })
    expect(await hub.get(event.id)).toEqual(event)
    expect(hubCheck(hub.location)).toMatchObject({ ok: true })
  })

  it('a refused patch stores neither the artifact nor the event', async () => {
    const hub = hubIn()
    await hub.create()
    await expect(hub.submitPatch({ content: 'x\n', from_agent: 'a', stream: 's', to_agent: 'a\u0001b' })).rejects.toThrow(
      'to_agent contains control characters'
    )
    await expect(hub.submitPatch({ content: 'x\n', from_agent: 'a', stream: ' ' })).rejects.toThrow('stream must be a non-empty string')
    const db = createHub(hub.location)
    expect(db.db.prepare('SELECT (SELECT count(*) FROM artifacts) + (SELECT count(*) FROM events) AS n').get()).toEqual({ n: 0 })
    db.close()
  })

  it('putArtifact / getArtifact keep the exact bytes; tip, get and count read the file', async () => {
    const hub = hubIn()
    await expect(hub.tip()).rejects.toMatchObject({ code: 'not_found' })
    await hub.create()
    expect(await hub.tip()).toBeNull()
    const rec = await hub.putArtifact({ kind: 'note', content: 'ノート\r\n', created_by: 'mac-claude' })
    expect((await hub.getArtifact(rec.id))!.content).toBe('ノート\r\n')
    expect(await hub.getArtifact('art_missing')).toBeNull()
    const e = await hub.append({
      type: EventType.chatMessage,
      stream: 's',
      room: Room.rooms,
      from_agent: 'a',
      to_agent: '*',
      artifact_ids: [rec.id]
    })
    expect(await hub.tip()).toEqual({ id: e.id, seq: e.seq })
    expect(await hub.count({ to_agent: 'anyone' })).toBe(1)
    expect(await hub.count({ type: EventType.ack })).toBe(0)
  })

  it('status reports existence, health and writability', async () => {
    const hub = hubIn()
    expect(await hub.status()).toMatchObject({ exists: false, online: false, read_only: false })
    await hub.create()
    expect(await hub.status()).toEqual({ exists: true, online: true, offline_reason: null, read_only: false, read_only_reason: null })
  })

  it('subscribe tails from the tip, from the start, or after an event id (a vanished id replays from the start)', async () => {
    const palace = join(tmpDir(), 'palace')
    const writer = createHub(palace)
    const put = (body: string): HubEvent =>
      appendEvent(writer.db, writer.replicaId, { type: 'chat.message', stream: 's', room: 'r', from_agent: 'x', body })
    const [a, b] = [put('a'), put('b')]
    const hub = hubIn(palace)
    const seen = { tip: [] as string[], start: [] as string[], after: [] as string[], gone: [] as string[] }
    const subs = [
      hub.subscribe({ from: 'tip' }, { events: (es) => seen.tip.push(...es.map((e) => e.body)) }),
      hub.subscribe({ from: 'start' }, { events: (es) => seen.start.push(...es.map((e) => e.body)) }),
      hub.subscribe({ after_id: a.id }, { events: (es) => seen.after.push(...es.map((e) => e.body)) }),
      hub.subscribe({ after_id: 'evt_20200101T000000_000000000000' }, { events: (es) => seen.gone.push(...es.map((e) => e.body)) })
    ]
    put('c')
    await until(() => seen.tip.length > 0 && seen.start.length > 2 && seen.after.length > 1 && seen.gone.length > 2)
    expect(seen).toEqual({ tip: ['c'], start: ['a', 'b', 'c'], after: ['b', 'c'], gone: ['a', 'b', 'c'] })
    for (const s of subs) s.close()
    put('d')
    await new Promise((r) => setTimeout(r, 150))
    expect(seen.tip).toEqual(['c'])
    expect(b.seq).toBe(2)
    writer.close()
  })

  it('a tail reports health changes: a hub that appears later is read from its first row', async () => {
    const palace = join(tmpDir(), 'palace')
    const hub = hubIn(palace)
    const health: boolean[] = []
    const bodies: string[] = []
    const sub = hub.subscribe(
      { from: 'tip' },
      { events: (es) => bodies.push(...es.map((e) => e.body)), health: (h) => health.push(h.online) }
    )
    await until(() => health.length > 0)
    const writer = createHub(palace)
    appendEvent(writer.db, writer.replicaId, { type: 'chat.message', stream: 's', room: 'r', from_agent: 'x', body: 'first' })
    await until(() => bodies.length > 0)
    expect(bodies).toEqual(['first'])
    expect(health).toEqual([false, true])
    sub.close()
    writer.close()
  })
})
