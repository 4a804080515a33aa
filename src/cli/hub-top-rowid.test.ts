/**
 * Issue 36, point 1, as the attack ran it, in separate processes: another process (python3, as any
 * local agent could) inserts one event at rowid 9223372036854775807, the top of SQLite's range, or
 * at 9223372036854775000 and then fills the rowids up to the top by plain inserts. From then on
 * SQLite numbers new rows at random. Afterwards `muster events list` still answers (and shows the
 * row, out of sequence), a waiting `muster approve-hook` process receives the operator's decision
 * made by a `muster approvals decide` process, and a `muster events wait` process wakes on a new
 * event: Muster's own rows stay in sequence.
 */
import { execFileSync, spawn } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { builtCli, runBuiltCli } from '../../test/helpers/built-cli'
import { chatAppendArgs } from '../../test/helpers/cli-args'
import { hookHome } from '../../test/helpers/hook-home'
import type { MusterService } from '../core/service-types'

let home: string
let palace: string
let service: MusterService

beforeAll(async () => {
  ;({ home, palace, service } = await hookHome('desk-muster'))
}, 240_000)
afterAll(() => service?.close())

/** Runs python3 on the hub file: `sql` with `args`, committed (a foreign writer). */
function foreign(sql: string, ...args: (string | number)[]): void {
  execFileSync('python3', [
    '-c',
    `import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.executescript(sys.argv[2]) if not sys.argv[3:] else db.execute(sys.argv[2], sys.argv[3:])
db.commit()`,
    join(palace, 'logstream.sqlite3'),
    sql,
    ...args.map(String)
  ])
}

/** The exact rowids of events, read by python3. */
function rowids(ids: string[]): string[] {
  return execFileSync('python3', [
    '-c',
    `import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
print("\\n".join(str(db.execute("SELECT rowid FROM events WHERE id = ?", (i,)).fetchone()[0]) for i in sys.argv[2:]))`,
    join(palace, 'logstream.sqlite3'),
    ...ids
  ])
    .toString()
    .trim()
    .split('\n')
}

/** `muster` in its own process, not waited on. */
function start(...args: string[]): { done: Promise<{ code: number | null; out: string; err: string }>; input: (s: string) => void } {
  const p = spawn(process.execPath, [builtCli(), ...args, '--home', home], {
    env: { ...process.env, MUSTER_HOME: '', MUSTER_NO_BACKGROUND: '1' },
    stdio: ['pipe', 'pipe', 'pipe']
  })
  let out = ''
  let err = ''
  p.stdout.on('data', (d: Buffer) => (out += d))
  p.stderr.on('data', (d: Buffer) => (err += d))
  return {
    done: new Promise((res) => p.on('close', (code) => res({ code, out, err }))),
    input: (s) => p.stdin.end(s)
  }
}

const ROW = `INSERT INTO events (rowid, id, type, stream, room, from_agent, body, created_at, metadata_json)
  VALUES (?, ?, 'chat.message', 's', 'rooms', 'far-agent', 'placed', '2026-12-05T10:00:00Z', '{}')`

async function hubStillWorks(label: string): Promise<void> {
  // reads answer, the foreign row shown out of sequence
  const list = runBuiltCli(home, 'events', 'list', '--palace', palace, '--order', 'desc', '--limit', '5')
  expect(list, label).toMatchObject({ code: 0, err: '' })
  expect(list.out).toMatch(/out of sequence/)
  const listed = runBuiltCli(home, 'events', 'list', '--palace', palace, '--limit', '500', '--json')
  expect(listed.code).toBe(0)

  // a hook waits; the operator decides from another process; the hook gets the decision
  const h = start('approve-hook', '--palace', palace, '--agent', 'mac-claude', '--timeout-ms', '90000')
  h.input(
    JSON.stringify({
      session_id: `top-${label}`,
      transcript_path: '/home/op/.claude/projects/x/top.jsonl',
      cwd: '/work/muse',
      permission_mode: 'default',
      hook_event_name: 'PermissionRequest',
      tool_name: 'Bash',
      tool_input: { command: `deploy ${label}`, description: 'ship' }
    })
  )
  let item: { correlation_id: string; id: string } | undefined
  for (let i = 0; i < 600 && !item; i++) {
    item = (await service.call('approvals.list', { hub: 'main' })).pending.find(
      (p) => (p.tool_input as { command?: string }).command === `deploy ${label}`
    )
    if (!item) await new Promise((r) => setTimeout(r, 50))
  }
  expect(item, 'the request reached the inbox').toBeTruthy()
  const decided = runBuiltCli(home, 'approvals', 'decide', item!.correlation_id, 'allow', '--palace', palace, '--reason', 'go')
  expect(decided, label).toMatchObject({ code: 0 })
  const hooked = await h.done
  expect(hooked.code).toBe(0)
  expect(JSON.parse(hooked.out)).toEqual({
    hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } }
  })
  // the service answers too (it answered 500 before)
  const thread = await service.call('hub.list', { hub: 'main', correlation_id: item!.correlation_id, limit: 50 })
  // the hook recorded the delivery once its answer was out
  expect(thread.events.map((e) => e.type)).toEqual(['approval.request', 'approval.decision', 'approval.receipt'])
  // Muster's rows are in sequence: the decision right after the request, far below the top
  const [req, dec] = rowids(thread.events.map((e) => e.id)).map(BigInt)
  expect(dec! > req!).toBe(true)
  expect(dec! < 2n ** 53n).toBe(true)

  // a waiting events wait process wakes on a new event
  const w = start('events', 'wait', '--palace', palace, '--from-agent', `waker-${label}`, '--timeout-ms', '90000', '--json')
  await new Promise((r) => setTimeout(r, 1500))
  const appended = runBuiltCli(home, ...chatAppendArgs(`waker-${label}`, '--palace', palace, '--body', 'wake up'))
  expect(appended.code).toBe(0)
  const woke = await w.done
  expect(woke, label).toMatchObject({ code: 0 })
  expect((JSON.parse(woke.out) as { events: { body: string }[] }).events.map((e) => e.body)).toEqual(['wake up'])
}

describe('a hub with a row at the top rowid, written by another process', () => {
  it('a row at 9223372036854775807: lists, the hook and its decision, waits all work', async () => {
    foreign(ROW, '9223372036854775807', 'evt_top_row')
    await hubStillWorks('top')
  }, 240_000)

  it('a row at 9223372036854775000 and SQLite numbering up to the top: the same', async () => {
    foreign(ROW, '9223372036854775000', 'evt_near_top')
    // another writer's plain inserts fill the rowids up to the top (807 of them)
    foreign(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 807)
       INSERT INTO events (id, type, stream, room, from_agent, body, created_at, metadata_json)
       SELECT 'evt_fill_' || i, 'chat.message', 's', 'rooms', 'filler', 'fill', '2026-12-05T10:00:00Z', '{}' FROM n`
    )
    await hubStillWorks('near')
  }, 240_000)
})
