/**
 * One validation of read queries for the CLI, the UI and HTTP (hub service `list`/`wait`), and
 * metadata read and written exactly. Upstream: logstream.py `Logstream.list_events` sanitises
 * every filter with the writers' rules (`_sanitize_routing`, `_sanitize_event_type`,
 * `_sanitize_status`, config.py `sanitize_iso_temporal`) and refuses `limit < 1`; metadata is
 * `json.dumps(..., ensure_ascii=False, sort_keys=True)` on write, `json.loads` on read.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { ApiError } from '../../../shared/api'
import { metadataText } from '../../../shared/metadata-text'
import { pyLoads } from '../../../shared/py-json-parse'
import { pyToObject } from '../../../shared/py-json'
import { tmpDir } from '../../../../test/helpers/tmp'
import { openRoot } from '../../root'
import { sanitizeListQuery } from '../values/filter-values'

const script = (name: string): string => fileURLToPath(new URL(`../../../../test/${name}`, import.meta.url))

/** Appends with test/hub_writer.py from a script given as JSON text (so 1.0 and big ints survive). */
function pythonWrite(palace: string, scriptJson: string): string[] {
  const file = join(palace, '..', `script-${Date.now()}.json`)
  writeFileSync(file, scriptJson)
  return JSON.parse(execFileSync('python3', [script('hub_writer.py'), palace, file], { encoding: 'utf8' })) as string[]
}

const rejects = async (p: Promise<unknown>, message: string): Promise<void> => {
  const err = await p.then(
    () => null,
    (e: unknown) => e
  )
  expect(err).toBeInstanceOf(ApiError)
  expect((err as ApiError).message).toBe(message)
  expect((err as ApiError).code).toBe('invalid_input')
}

describe('read queries: one validation path (hub service list/wait)', () => {
  it('bad filter values are errors with upstream wording; routing values are trimmed; limit and dates checked', async () => {
    const palace = join(tmpDir(), 'palace')
    pythonWrite(
      palace,
      JSON.stringify(
        [' mac-codex ', 'mac-codex', 'win-codex'].map((a, i) => ({
          event: { type: 'chat.message', stream: 's', room: 'rooms', from_agent: a.trim(), to_agent: 'x', body: String(i) }
        }))
      )
    )
    const svc = openRoot({ home: tmpDir(), env: {} })
    try {
      const hubs = await svc.get('hubs')
      await rejects(
        hubs.list({ palace, type: 'Task.Request' }),
        "type='Task.Request' is not a valid event type (lowercase letters, digits, '.', '_', '-'; max 64 chars)"
      )
      await rejects(
        hubs.list({ palace, status: 'bogus' }),
        "status='bogus' is not one of: applied, blocked, claimed, failed, open, ready, superseded"
      )
      await rejects(
        hubs.list({ palace, type: ['patch.ready', 'Task.Request'] }),
        "type='Task.Request' is not a valid event type (lowercase letters, digits, '.', '_', '-'; max 64 chars)"
      )
      await rejects(hubs.list({ palace, stream: '   ' }), 'stream must be a non-empty string')
      await rejects(hubs.list({ palace, from_agent: 'a\tb' }), 'from_agent contains control characters')
      await rejects(hubs.list({ palace, limit: 0 }), 'limit must be a positive integer')
      await rejects(hubs.list({ palace, limit: -3 }), 'limit must be a positive integer')
      await rejects(hubs.wait({ palace, limit: 0, timeout_ms: 10 }), 'limit must be a positive integer')
      await rejects(hubs.wait({ palace, timeout_ms: -1 }), 'timeout_ms must be a non-negative number')
      await rejects(
        hubs.list({ palace, since_created_at: 'yesterday' }),
        "since_created_at='yesterday' is not a valid ISO-8601 date or UTC datetime (expected YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ)"
      )
      await rejects(
        hubs.list({ palace, since_created_at: '2026-02-30' }),
        "since_created_at='2026-02-30' is not a valid ISO-8601 date or UTC datetime (expected YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ)"
      )
      expect((await hubs.list({ palace, from_agent: ' mac-codex ' })).count).toBe(2)
      expect((await hubs.list({ palace, to_agent: ['  x', ''] })).count).toBe(3)
      expect((await hubs.list({ palace, since_created_at: ' 2000-01-01T00:00:00+00:00 ' })).count).toBe(3)
      expect((await hubs.list({ palace, limit: 100000 })).count).toBe(3) // clamped to 500, not refused
      expect((await hubs.list({ palace, status: '' })).count).toBe(3) // empty = absent
    } finally {
      await svc.close()
    }
  })

  it('normalises cursors and order like list_events', () => {
    expect(sanitizeListQuery({ since_event_id: ' evt_x ', order: 'desc' })).toEqual({ since_event_id: 'evt_x', order: 'desc', limit: 50 })
    expect(() => sanitizeListQuery({ order: 'up' as 'asc' })).toThrow("order='up' must be 'asc' or 'desc'")
  })
})

describe('metadata round-trips verbatim (ints past 2^53, 1.0, key order)', () => {
  const text = '{"big": 12345678901234567890, "f": 1.0, "list": [1e+16, 9007199254740993, -0.0], "n": 3, "x": 0.1}'

  it('rows written by Python read back exactly: the contract carries the stored text beside the lossy plain value', async () => {
    const palace = join(tmpDir(), 'palace')
    const [id] = pythonWrite(
      palace,
      `[{"event": {"type": "chat.message", "stream": "s", "room": "rooms", "from_agent": "py", "metadata": ${text}}}]`
    )
    const svc = openRoot({ home: tmpDir(), env: {} })
    try {
      const { event } = await (await svc.get('hubs')).get({ palace, id: id! })
      expect(event.metadata_json).toBe(text)
      expect(event.metadata).toEqual({ big: 12345678901234567000, f: 1, list: [1e16, 9007199254740992, -0], n: 3, x: 0.1 })
      expect(metadataText(event)).toBe(
        '{\n  "big": 12345678901234567890,\n  "f": 1.0,\n  "list": [\n    1e+16,\n    9007199254740993,\n    -0.0\n  ],\n  "n": 3,\n  "x": 0.1\n}'
      )
      // Plain metadata needs no stored text (the contract stays as it was).
      const [plain] = pythonWrite(
        palace,
        '[{"event": {"type": "chat.message", "stream": "s", "room": "rooms", "from_agent": "py", "metadata": {"a": [1, 0.5, "1.0"]}}}]'
      )
      expect((await (await svc.get('hubs')).get({ palace, id: plain! })).event).not.toHaveProperty('metadata_json')
    } finally {
      await svc.close()
    }
  })

  it('metadata given as text is stored byte for byte as Python writes it, and hub_check.py agrees', async () => {
    const palace = join(tmpDir(), 'palace')
    const svc = openRoot({ home: tmpDir(), env: {} })
    try {
      const given = '{"n": 3, "list": [1E16, 9007199254740993, -0.0], "x": 0.1, "f": 1.0, "big": 12345678901234567890}'
      const metadata = pyToObject(pyLoads(given)) as Record<string, unknown>
      const { event } = await (
        await svc.get('hubs')
      ).append({ palace, type: 'chat.message', stream: 's', room: 'rooms', from_agent: 'muster', metadata })
      expect(event.metadata_json).toBe(text)
      const db = new Database(join(palace, 'logstream.sqlite3'), { readonly: true })
      const stored = (db.prepare('SELECT metadata_json FROM events WHERE id = ?').get(event.id) as { metadata_json: string }).metadata_json
      db.close()
      const python = execFileSync(
        'python3',
        ['-c', 'import json,sys; print(json.dumps(json.loads(sys.stdin.read()), ensure_ascii=False, sort_keys=True), end="")'],
        { input: given, encoding: 'utf8' }
      )
      expect(stored).toBe(python)
      const check = spawnSync('python3', [script('hub_check.py'), palace], { encoding: 'utf8' })
      expect(check.status, check.stdout).toBe(0)
    } finally {
      await svc.close()
    }
  })
})
