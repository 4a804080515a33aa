/**
 * Synthetic hubs for `npm run bench`: a realistic mix of task requests, claims, patches, acks,
 * chat, CI results and presence announcements, written as one transaction of prepared inserts
 * with valid ids, created_at, origin_seq = rowid and strictly increasing HLCs (about 10 s per
 * 1,000,000 events). One thread (`BENCH_BIG_THREAD`) holds 1,000 events for the fold budget.
 */
import { seededRandom } from '../../seeded-random'
import { createHub } from './schema'
import { formatCreatedAt, idStamp, renderHlc } from '../values/ids'

/** The correlation id of the 1,000-event thread. */
export const BENCH_BIG_THREAD = 'task_bench_big_thread_0badc0de'
/** Agents writing the synthetic stream (the operator reads as `desk-muster`). */
export const BENCH_AGENTS = [
  'mac-claude',
  'win-codex',
  'home-bot',
  'linux-claude',
  'mac-codex',
  'ci-runner',
  'desk-muster',
  'lab-gemini'
] as const

/** What `generateBenchHub` wrote. */
export interface BenchHub {
  palace: string
  events: number
  replicaId: string
  bigThread: string
}

const TYPES = [
  'chat.message',
  'chat.message',
  'review.comment',
  'ci.result',
  'status',
  'task.request',
  'event.ack',
  'event.ack',
  'patch.ready',
  'task.reply'
] as const
const ROOMS: Record<string, string> = {
  'chat.message': 'rooms',
  'review.comment': 'reviews',
  'ci.result': 'status',
  status: 'status',
  'task.request': 'delegation',
  'event.ack': 'delegation',
  'patch.ready': 'patches',
  'task.reply': 'delegation'
}
const STREAMS = ['project/muse', 'project/atlas', 'project/dya', 'project/hub', 'presence'] as const
const WORDS = 'the patch fixes timeout handling in the MCP bridge and adds tests for retry backoff 修复 超时 ✅ cache index rebuild'.split(
  ' '
)

/** Writes `count` events into a new hub at `palace` (default 1,000,000). */
export function generateBenchHub(palace: string, count = 1_000_000, seed = 42): BenchHub {
  const hub = createHub(palace)
  const { db, replicaId } = hub
  const rand = seededRandom(seed)
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!
  const insert = db.prepare(
    `INSERT INTO events (rowid, id, type, stream, room, topic, from_agent, to_agent, correlation_id, branch, base_commit, status,
       body, created_at, metadata_json, origin_replica, origin_seq, hlc) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
  )
  const start = Date.UTC(2026, 0, 1) - count * 1000
  const bigEvery = Math.max(1, Math.floor(count / 1000))
  let lastTaskCorr = 'task_bench_seed_00000000'
  let lastTaskId = ''
  let lastBig: (typeof recent)[number] | null = null
  const recent: { id: string; from: string; corr: string | null; stream: string; room: string; topic: string | null }[] = []
  db.transaction(() => {
    for (let i = 1; i <= count; i++) {
      const ms = start + i * 1000 + Math.floor(rand() * 900)
      const at = new Date(ms)
      const id = `evt_${idStamp(at)}_${i.toString(16).padStart(12, '0')}`
      const from = pick(BENCH_AGENTS)
      let type: string = pick(TYPES)
      let corr: string | null = null
      let status: string | null = null
      let meta = '{}'
      let ackTarget: (typeof recent)[number] | null = null
      const r = rand()
      let to: string | null = r < 0.3 ? '*' : r < 0.9 ? pick(BENCH_AGENTS) : null
      if (i % bigEvery === 0 && i / bigEvery <= 1000) {
        // Exactly 1,000 events: the request, then replies with an ack of the previous one every
        // 4th slot. Nothing else acks into this thread (its events stay out of `recent`).
        const slot = i / bigEvery
        corr = BENCH_BIG_THREAD
        type = slot === 1 ? 'task.request' : slot % 4 === 0 ? 'event.ack' : 'chat.message'
        status = slot === 1 ? 'open' : slot % 4 === 0 ? pick(['claimed', 'claimed', 'blocked'] as const) : null
        if (type === 'event.ack' && lastBig) {
          ackTarget = lastBig
          to = lastBig.from
          meta = `{"ack_of": "${lastBig.id}"}`
        }
      } else if (type === 'task.request') {
        corr = lastTaskCorr = `task_bench_${i.toString(16).padStart(8, '0')}`
        lastTaskId = id
        status = 'open'
      } else if (type === 'event.ack' && recent.length) {
        const target = (ackTarget = pick(recent))
        corr = target.corr ?? target.id
        to = target.from
        status = pick(['claimed', 'applied', 'failed', 'claimed', null] as const)
        meta = `{"ack_of": "${target.id}"}`
      } else if (type === 'patch.ready' || type === 'task.reply') {
        corr = lastTaskCorr
        status = type === 'patch.ready' ? 'ready' : pick(['blocked', 'failed'] as const)
      } else if (type === 'status') {
        to = '*'
      }
      const words = 8 + Math.floor(rand() * 40)
      let body = ''
      for (let w = 0; w < words; w++) body += (w ? ' ' : '') + pick(WORDS)
      const stream = ackTarget?.stream ?? (type === 'status' ? 'presence' : pick(STREAMS))
      const room = ackTarget?.room ?? ROOMS[type] ?? 'rooms'
      const topic = ackTarget ? ackTarget.topic : rand() < 0.5 ? pick(['hub', 'release', 'ci', 'oom']) : null
      insert.run(
        i,
        id,
        type,
        stream,
        room,
        topic,
        from,
        to,
        corr,
        type === 'task.request' ? 'main' : null,
        type === 'task.request' ? 'f631dfe' : null,
        status,
        body,
        formatCreatedAt(at),
        meta,
        replicaId,
        i,
        renderHlc(ms, 0, replicaId)
      )
      if (corr === BENCH_BIG_THREAD) lastBig = { id, from, corr, stream, room, topic }
      else recent.push({ id, from, corr, stream, room, topic })
      if (recent.length > 64) recent.shift()
    }
  }).immediate()
  void lastTaskId
  hub.close()
  return { palace: hub.palaceDir, events: count, replicaId, bigThread: BENCH_BIG_THREAD }
}
