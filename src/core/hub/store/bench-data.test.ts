import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { tmpDir } from '../../../../test/helpers/tmp'
import { BENCH_BIG_THREAD, generateBenchHub } from './bench-data'
import { HubConnection } from './hub-connection'
import { listEvents } from './reader'
import { readThread } from '../folds/thread'

const palace = join(tmpDir(), 'bench')
const conn = new HubConnection(palace)
afterAll(() => conn.close())

describe('generateBenchHub', () => {
  it('writes valid MemPalace rows (hub_check.py) and a 1,000-event thread', () => {
    const hub = generateBenchHub(palace, 40_000)
    expect(hub.events).toBe(40_000)
    const res = spawnSync('python3', [fileURLToPath(new URL('../../../../test/hub_check.py', import.meta.url)), palace], {
      encoding: 'utf8'
    })
    expect(JSON.parse(res.stdout)).toMatchObject({ ok: true, events: 40_000 })
    expect(readThread(conn, BENCH_BIG_THREAD).fold.event_count).toBe(1000)
  })

  it('plans: dense filters scan by rowid, selective ones use the upstream index, results agree', () => {
    const dense = listEvents(conn, { to_agent: 'mac-claude', type: 'chat.message', order: 'desc', limit: 100 })
    expect(dense.plan).toBe('scan')
    expect(dense.events.every((e) => e.type === 'chat.message' && (e.to_agent === 'mac-claude' || e.to_agent === '*'))).toBe(true)
    expect(dense.events.map((e) => e.seq)).toEqual([...dense.events.map((e) => e.seq)].sort((a, b) => b - a))
    const rare = listEvents(conn, { correlation_id: BENCH_BIG_THREAD, order: 'desc', limit: 20 })
    expect(rare.plan).toBe('index:events_correlation_idx')
    const all = listEvents(conn, { correlation_id: BENCH_BIG_THREAD, order: 'asc', limit: 500 })
    expect(rare.events.map((e) => e.id)).toEqual(
      readThread(conn, BENCH_BIG_THREAD)
        .events.slice(-20)
        .reverse()
        .map((e) => e.id)
    )
    expect(all.events).toHaveLength(500)
    const paged = listEvents(conn, {
      to_agent: 'win-codex',
      type: 'status',
      before_event_id: dense.events[50]!.id,
      order: 'desc',
      limit: 30
    })
    expect(paged.events.every((e) => e.seq < dense.events[50]!.seq)).toBe(true)
  })
})
