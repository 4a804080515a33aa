import { describe, it, expect, beforeEach, afterEach } from 'vitest'
import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createHub, type HubFile } from './schema'
import { CREATED_AT_RE, EVENT_ID_RE, ARTIFACT_ID_RE, HLC_RE } from '../values/ids'
import { HubValidationError, PATCH_WARNING_CRLF, PATCH_WARNING_NO_TRAILING_NEWLINE } from '../values/validate'
import { ackEvent, appendEvent, createTaskRequest, getArtifact, getEvent, listEvents, putArtifact, submitPatch, taskBody } from './writer'
import { ENVELOPE_KEYS } from '../../../../test/helpers/hub-envelope'

let dir: string
let hub: HubFile
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'muster-hub-writer-'))
  hub = createHub(join(dir, 'palace'))
})
afterEach(() => {
  hub.close()
  rmSync(dir, { recursive: true, force: true })
})

const count = (table: string) => (hub.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n
const base = { type: 'note', stream: 'project/muse', room: 'rooms', from_agent: 'mac-claude' }

describe('appendEvent', () => {
  it('stores the event and returns the envelope in upstream key order', () => {
    const ev = appendEvent(hub.db, hub.replicaId, { ...base, to_agent: '*', topic: '', body: 'hello 你好', metadata: { b: 2, a: 1 } })
    expect(Object.keys(ev)).toEqual(ENVELOPE_KEYS)
    expect(ev.id).toMatch(EVENT_ID_RE)
    expect(ev.created_at).toMatch(CREATED_AT_RE)
    expect(ev.hlc).toMatch(HLC_RE)
    expect(ev.hlc!.endsWith(`-${hub.replicaId}`)).toBe(true)
    expect(ev).toMatchObject({ seq: 1, origin_seq: 1, origin_replica: hub.replicaId, topic: null, to_agent: '*', body: 'hello 你好' })
    expect(ev.metadata).toEqual({ a: 1, b: 2 })
    const row = hub.db.prepare('SELECT rowid, origin_seq, metadata_json FROM events WHERE id = ?').get(ev.id) as Record<string, unknown>
    expect(row.origin_seq).toBe(row.rowid)
    expect(row.metadata_json).toBe('{"a": 1, "b": 2}')
  })

  it('uses the explicit instant for id stamp, created_at and hlc', () => {
    const at = new Date(Date.UTC(2026, 2, 15, 23, 46, 7, 250))
    const ev = appendEvent(hub.db, hub.replicaId, { ...base, at })
    expect(ev.id.startsWith('evt_20260315T234607_')).toBe(true)
    expect(ev.created_at).toBe('2026-03-15T23:46:07Z')
    expect(ev.hlc).toBe(`${at.getTime()}-000000-${hub.replicaId}`)
  })

  it('keeps origin_seq = rowid and hlc strictly increasing, even within one millisecond', () => {
    const at = new Date(Date.UTC(2026, 0, 1))
    const events = Array.from({ length: 20 }, () => appendEvent(hub.db, hub.replicaId, { ...base, at }))
    // an earlier instant after later ones must still sort after them
    events.push(appendEvent(hub.db, hub.replicaId, { ...base, at: new Date(Date.UTC(2025, 0, 1)) }))
    events.push(appendEvent(hub.db, hub.replicaId, base))
    const rows = hub.db.prepare('SELECT rowid, origin_seq, hlc FROM events ORDER BY rowid').all() as {
      rowid: number
      origin_seq: number
      hlc: string
    }[]
    expect(rows).toHaveLength(22)
    for (let i = 0; i < rows.length; i++) {
      expect(rows[i]!.origin_seq).toBe(rows[i]!.rowid)
      if (i > 0) expect(rows[i]!.hlc > rows[i - 1]!.hlc).toBe(true)
    }
    expect(rows[1]!.hlc).toBe(`${at.getTime()}-000001-${hub.replicaId}`)
    expect(rows[20]!.hlc).toBe(`${at.getTime()}-000014-${hub.replicaId}`)
    expect(events.map((e) => e.seq)).toEqual(rows.map((r) => r.rowid))
  })

  /** A row written by another replica (`rep_ffffffffffff`) with the given HLC. */
  const foreign = (hlc: string, seq = 7) =>
    hub.db
      .prepare(
        `INSERT INTO events (id, type, stream, room, from_agent, created_at, origin_replica, origin_seq, hlc)
         VALUES (?, 'note', 's', 'r', 'x', '2026-03-15T12:00:00Z', 'rep_ffffffffffff', ?, ?)`
      )
      .run(`evt_20260315T120000_${String(seq).padStart(12, '0')}`, seq, hlc)

  it('stays above a newer stamp another replica wrote up to 60 s ahead', () => {
    const at = new Date('2026-03-15T12:00:00Z')
    foreign(`${at.getTime() + 59_000}-000003-rep_ffffffffffff`)
    expect(appendEvent(hub.db, hub.replicaId, { ...base, at }).hlc).toBe(`${at.getTime() + 59_000}-000004-${hub.replicaId}`)
  })

  it('does not follow a stamp more than 60 s ahead (a replica whose clock runs 2 h fast)', () => {
    const at = new Date('2026-03-15T12:00:00Z')
    const ahead = `${at.getTime() + 2 * 3600_000}-000000-rep_ffffffffffff`
    foreign(ahead)
    foreign(`${at.getTime() - 1000}-000002-rep_ffffffffffff`, 8)
    const ev = appendEvent(hub.db, hub.replicaId, { ...base, at })
    expect(ev.hlc).toBe(`${at.getTime()}-000000-${hub.replicaId}`)
    // the next write stays on the local clock too: it sorts before the far-ahead stamp, after ours
    const next = appendEvent(hub.db, hub.replicaId, { ...base, at: new Date(at.getTime() + 5) })
    expect(next.hlc).toBe(`${at.getTime() + 5}-000000-${hub.replicaId}`)
    expect(ev.hlc! < next.hlc! && next.hlc! < ahead).toBe(true)
    // exactly 60 s ahead is still followed
    foreign(`${at.getTime() + 5 + 60_000}-000000-rep_ffffffffffff`, 9)
    expect(appendEvent(hub.db, hub.replicaId, { ...base, at: new Date(at.getTime() + 5) }).hlc).toBe(
      `${at.getTime() + 5 + 60_000}-000001-${hub.replicaId}`
    )
  })

  it('keeps its own stamps monotonic when the local clock steps back', () => {
    const at = new Date('2026-03-15T12:00:00Z')
    const first = appendEvent(hub.db, hub.replicaId, { ...base, at })
    const back = appendEvent(hub.db, hub.replicaId, { ...base, at: new Date(at.getTime() - 3600_000) })
    expect(back.hlc).toBe(`${at.getTime()}-000001-${hub.replicaId}`)
    expect(back.hlc! > first.hlc!).toBe(true)
  })

  it('writes metadata byte-identical to Python json.dumps(sort_keys=True, ensure_ascii=False)', () => {
    const ev = appendEvent(hub.db, hub.replicaId, {
      ...base,
      metadata: { 中文: '竞品 ✅', nested: { z: [1, 2.5, null], a: { y: true, x: 'q"\n' } }, A: 0 }
    })
    const row = hub.db.prepare('SELECT metadata_json FROM events WHERE id = ?').get(ev.id) as { metadata_json: string }
    expect(row.metadata_json).toBe('{"A": 0, "nested": {"a": {"x": "q\\"\\n", "y": true}, "z": [1, 2.5, null]}, "中文": "竞品 ✅"}')
  })

  it('validates before writing anything', () => {
    expect(() => appendEvent(hub.db, hub.replicaId, { ...base, type: 'Bad Type' })).toThrow(HubValidationError)
    expect(() => appendEvent(hub.db, hub.replicaId, { ...base, status: 'done' })).toThrow("status='done' is not one of")
    expect(() => appendEvent(hub.db, hub.replicaId, { ...base, stream: ' ' })).toThrow('stream must be a non-empty string')
    expect(() => appendEvent(hub.db, hub.replicaId, { ...base, body: 'a\0' })).toThrow('body contains null bytes')
    expect(() => appendEvent(hub.db, hub.replicaId, { ...base, at: new Date('nope') })).toThrow('at must be a valid Date')
    expect(count('events')).toBe(0)
  })

  it('rolls back the whole append when an artifact id is unknown', () => {
    const art = putArtifact(hub.db, hub.replicaId, { kind: 'note', content: 'x', created_by: 'mac-claude' })
    expect(() => appendEvent(hub.db, hub.replicaId, { ...base, artifact_ids: [art.id, 'art_20260101T000000_000000000000'] })).toThrow(
      "artifact_ids references unknown artifact 'art_20260101T000000_000000000000'"
    )
    expect(count('events')).toBe(0)
    expect(count('event_artifacts')).toBe(0)
    const ok = appendEvent(hub.db, hub.replicaId, { ...base, artifact_ids: [art.id, art.id] })
    expect(ok.artifact_ids).toEqual([art.id])
    expect(ok.seq).toBe(1)
    expect(getEvent(hub.db, ok.id)).toEqual(ok) // the returned envelope is what a reader sees
  })
})

describe('putArtifact / submitPatch', () => {
  it('stores content verbatim with sha256 and UTF-8 size', () => {
    const content = '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-旧\n+新\n'
    const art = putArtifact(hub.db, hub.replicaId, { kind: 'patch', content, created_by: 'win-codex', metadata: { k: 1 } })
    expect(art.id).toMatch(ARTIFACT_ID_RE)
    expect(art.sha256).toBe(createHash('sha256').update(Buffer.from(content, 'utf8')).digest('hex'))
    expect(art.size_bytes).toBe(Buffer.byteLength(content))
    expect(art.warnings).toBeUndefined()
    const stored = getArtifact(hub.db, art.id)!
    expect(stored.content).toBe(content)
    expect(stored.metadata).toEqual({ k: 1 })
  })

  it('returns the two upstream warnings and keeps CRLF bytes unchanged', () => {
    const content = 'diff --git a/x b/x\r\n+y'
    const art = putArtifact(hub.db, hub.replicaId, { kind: 'patch', content, created_by: 'win-codex' })
    expect(art.warnings).toEqual([PATCH_WARNING_NO_TRAILING_NEWLINE, PATCH_WARNING_CRLF])
    expect(getArtifact(hub.db, art.id)!.content).toBe(content)
    expect(() => putArtifact(hub.db, hub.replicaId, { kind: 'diff', content: 'x', created_by: 'a' })).toThrow("kind='diff'")
  })

  it('submits a patch as artifact + patch.ready', () => {
    const { artifact, event } = submitPatch(hub.db, hub.replicaId, {
      content: 'diff\n',
      from_agent: 'win-codex',
      stream: 'project/muse',
      correlation_id: 'task_x_0000abcd'
    })
    expect(event).toMatchObject({ type: 'patch.ready', room: 'patches', status: 'ready', artifact_ids: [artifact.id] })
  })
})

describe('ackEvent', () => {
  it('copies routing from the target exactly', () => {
    const target = appendEvent(hub.db, hub.replicaId, {
      type: 'task.request',
      stream: 'project/dya',
      room: 'delegation',
      topic: 'search',
      from_agent: 'mac-claude',
      to_agent: 'win-codex',
      correlation_id: 'task_fix_1234abcd',
      status: 'open'
    })
    const ack = ackEvent(hub.db, hub.replicaId, { event_id: target.id, from_agent: 'win-codex', status: 'claimed', body: 'on it' })
    expect(ack).toMatchObject({
      type: 'event.ack',
      stream: 'project/dya',
      room: 'delegation',
      topic: 'search',
      from_agent: 'win-codex',
      to_agent: 'mac-claude',
      correlation_id: 'task_fix_1234abcd',
      status: 'claimed',
      body: 'on it',
      metadata: { ack_of: target.id }
    })
    expect(getEvent(hub.db, target.id)).toEqual({ ...target }) // the target is never changed
    const other = ackEvent(hub.db, hub.replicaId, { event_id: target.id, from_agent: 'home-bot', topic: 'triage' })
    expect(other.topic).toBe('triage')
    expect(other.status).toBeNull()
  })

  it('falls back to the target id as correlation id and rejects unknown targets', () => {
    const plain = appendEvent(hub.db, hub.replicaId, { ...base })
    const ack = ackEvent(hub.db, hub.replicaId, { event_id: plain.id, from_agent: 'home-bot', status: 'applied' })
    expect(ack.correlation_id).toBe(plain.id)
    expect(ack.topic).toBeNull()
    expect(() => ackEvent(hub.db, hub.replicaId, { event_id: 'evt_nope', from_agent: 'a' })).toThrow("event 'evt_nope' not found")
    expect(() => ackEvent(hub.db, hub.replicaId, { event_id: plain.id, from_agent: 'a', status: 'done' })).toThrow('status=')
  })
})

describe('createTaskRequest', () => {
  const task = {
    project: 'MemPalace Hub',
    from_agent: 'mac-claude',
    to_agent: 'windows-codex',
    goal: 'Fix remote task creation.',
    branch: 'fix/remote-task',
    base_commit: 'ABCDEF1234',
    done: 'Focused tests pass and a patch is submitted.'
  }

  it('writes the canonical request with the exact body', () => {
    const { task: ev, handoff } = createTaskRequest(hub.db, hub.replicaId, { ...task, suffix: '0a1b2c3d' })
    expect(ev).toMatchObject({
      type: 'task.request',
      stream: 'project/mempalace_hub',
      room: 'delegation',
      status: 'open',
      from_agent: 'mac-claude',
      to_agent: 'windows-codex',
      branch: 'fix/remote-task',
      base_commit: 'abcdef1234',
      correlation_id: 'task_fix_remote_task_creation_0a1b2c3d'
    })
    expect(ev.body).toBe(
      'Goal:\nFix remote task creation.\n\nDefinition of done:\nFocused tests pass and a patch is submitted.\n\n' +
        'Delivery:\nClose the loop through MemPalace: claim the request, then submit a patch with mempalace_patch_submit ' +
        'or reply with blocked/failed evidence.'
    )
    expect(ev.body).toBe(taskBody(task.goal, task.done))
    expect(handoff).toBe(
      'Open MemPalace task task_fix_remote_task_creation_0a1b2c3d as windows-codex. Claim it, follow its exact definition of done, and deliver through the logstream.'
    )
    const random = createTaskRequest(hub.db, hub.replicaId, { ...task, goal: '修复' }).task
    expect(random.correlation_id).toMatch(/^task_work_[0-9a-f]{8}$/)
  })

  it('rejects bad input with the upstream messages', () => {
    const msg = 'task base commit must be a hexadecimal Git object id (at least 7 characters), not a branch or tag'
    expect(() => createTaskRequest(hub.db, hub.replicaId, { ...task, base_commit: 'main' })).toThrow(msg)
    expect(() => createTaskRequest(hub.db, hub.replicaId, { ...task, goal: ' ' })).toThrow('task goal must not be empty')
    expect(() => createTaskRequest(hub.db, hub.replicaId, { ...task, done: '' })).toThrow('task definition of done must not be empty')
    expect(() => createTaskRequest(hub.db, hub.replicaId, { ...task, branch: '' })).toThrow('task branch must not be empty')
    expect(() => createTaskRequest(hub.db, hub.replicaId, { ...task, to_agent: '' })).toThrow('task destination agent must not be empty')
    expect(() => createTaskRequest(hub.db, hub.replicaId, { ...task, from_agent: '' })).toThrow('task requesting agent must not be empty')
    expect(() => createTaskRequest(hub.db, hub.replicaId, { ...task, project: '' })).toThrow('task project must not be empty')
    expect(count('events')).toBe(0)
  })
})

describe('listEvents', () => {
  it('lists by rowid asc/desc with a clamped limit', () => {
    for (let i = 0; i < 5; i++) appendEvent(hub.db, hub.replicaId, { ...base, body: String(i) })
    expect(listEvents(hub.db).map((e) => e.body)).toEqual(['0', '1', '2', '3', '4'])
    expect(listEvents(hub.db, { limit: 2, order: 'desc' }).map((e) => e.body)).toEqual(['4', '3'])
  })
})
