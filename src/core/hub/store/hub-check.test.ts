import { describe, it, expect, beforeEach, afterEach } from 'vitest'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createHub, type HubFile } from './schema'
import { ackEvent, appendEvent, createTaskRequest, submitPatch } from './writer'

/** Runs test/hub_check.py (MemPalace's rules, Python stdlib) on a palace dir. */
function runHubCheck(palace: string): { status: number | null; summary: Record<string, unknown>; stderr: string } {
  const script = fileURLToPath(new URL('../../../../test/hub_check.py', import.meta.url))
  const res = spawnSync('python3', [script, palace], { encoding: 'utf8' })
  let summary: Record<string, unknown> = {}
  try {
    summary = JSON.parse(res.stdout) as Record<string, unknown>
  } catch {
    summary = { raw: res.stdout }
  }
  return { status: res.status, summary, stderr: res.stderr }
}

let dir: string
let hub: HubFile
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'muster-hub-check-'))
  hub = createHub(join(dir, 'palace'))
})
afterEach(() => {
  hub.close()
  rmSync(dir, { recursive: true, force: true })
})

function writeSampleHub(): void {
  const at = new Date(Date.UTC(2026, 2, 15, 12, 0, 0))
  const { task } = createTaskRequest(hub.db, hub.replicaId, {
    project: 'muse',
    from_agent: 'mac-claude',
    to_agent: 'win-codex',
    goal: 'Fix MCP 超时 handling',
    branch: 'fix/mcp-timeout',
    base_commit: 'f631dfe',
    done: 'npm test passes',
    at
  })
  ackEvent(hub.db, hub.replicaId, { event_id: task.id, from_agent: 'win-codex', status: 'claimed', at })
  const { event } = submitPatch(hub.db, hub.replicaId, {
    content: '--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-旧\n+新\n',
    from_agent: 'win-codex',
    stream: task.stream,
    correlation_id: task.correlation_id,
    to_agent: 'mac-claude',
    body: 'patch ready ✅',
    metadata: { tests: 'ok', 中: [1, 2.5] },
    at
  })
  ackEvent(hub.db, hub.replicaId, { event_id: event.id, from_agent: 'mac-claude', status: 'applied', body: 'applied, 12 passed' })
  appendEvent(hub.db, hub.replicaId, {
    type: 'status',
    stream: 'presence',
    room: 'status',
    from_agent: 'home-bot',
    to_agent: '*',
    body: 'watching',
    metadata: { filters: { to_agent: ['home-bot'] }, cursor: task.id, note: 'q"\\\n\u0001' }
  })
}

describe('test/hub_check.py (MemPalace rules, run by Python)', () => {
  it('passes on a hub written by the writer', () => {
    writeSampleHub()
    hub.db.pragma('wal_checkpoint(TRUNCATE)')
    const { status, summary, stderr } = runHubCheck(hub.palaceDir)
    expect(stderr).toBe('')
    expect(summary.violations).toEqual([])
    expect(summary).toMatchObject({ ok: true, events: 5, artifacts: 1, acks: 2, replica_id: hub.replicaId, legacy_rows: 0 })
    expect(status).toBe(0)
  })

  it('fails (exit 1) on rows MemPalace would not have written', () => {
    writeSampleHub()
    hub.db
      .exec(`INSERT INTO events (id, type, stream, room, from_agent, to_agent, created_at, metadata_json, origin_replica, origin_seq, hlc)
      VALUES ('evt_bad', 'event.ack', 's', 'r', 'x', 'nobody', '2026-03-15 12:00:00', '{"b":1,"a":2}', '${hub.replicaId}', 99, '0000000000001-000000-${hub.replicaId}')`)
    const { status, summary } = runHubCheck(hub.palaceDir)
    expect(status).toBe(1)
    const messages = (summary.violations as { message: string }[]).map((v) => v.message).join('\n')
    expect(messages).toMatch(/bad event id/)
    expect(messages).toMatch(/bad created_at/)
    expect(messages).toMatch(/metadata_json is not canonical/)
    expect(messages).toMatch(/origin_seq 99 != rowid/)
    expect(messages).toMatch(/not greater than previous max/)
    expect(messages).toMatch(/ack_of None does not name an existing event/)
  })
})
