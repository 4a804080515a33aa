/**
 * The demo hub's background traffic: presence (`type=status`, `to_agent='*'`, `room=status`)
 * announcements of four agents and a few hundred realistic chat, review and CI events spread over
 * the last five days. Deterministic (seeded) apart from the random parts of ids.
 */
import type { Db } from '../../sqlite'
import { appendEvent } from '../../hub/store'
import { pick, seededRandom, type DemoClock } from './clock'

/** One write scheduled at a given instant; the demo runs all steps in time order. */
export interface Step {
  at: Date
  run: () => void
}

/** The hub connection and replica the steps write with. */
export interface HubTarget {
  db: Db
  replicaId: string
}

/** The demo's agents: identity, harness, machine and when each is usually at work (local hours). */
export const AGENTS = [
  { id: 'mac-claude', harness: 'claude-code', machine: 'MacBook Pro', hours: [9, 23] },
  { id: 'win-codex', harness: 'codex', machine: 'Windows desktop', hours: [8, 22] },
  { id: 'home-bot', harness: 'hermes', machine: 'home NUC', hours: [0, 24] },
  { id: 'linux-gemini', harness: 'gemini-cli', machine: 'Linux build box', hours: [7, 24] }
] as const

/** The operator identity the demo uses for approval decisions. */
export const DEMO_OPERATOR = 'mac-operator'

function latestEventId(t: HubTarget): string | null {
  const row = t.db.prepare('SELECT id FROM events ORDER BY rowid DESC LIMIT 1').get() as { id: string } | undefined
  return row?.id ?? null
}

/** Presence announcements: every agent every ~3 hours while at work, the last one recent. */
export function presenceSteps(c: DemoClock, t: HubTarget): Step[] {
  const steps: Step[] = []
  const lastSeen: Record<string, number> = { 'mac-claude': 4, 'win-codex': 11, 'home-bot': 135, 'linux-gemini': 27 }
  for (const agent of AGENTS) {
    const times: Date[] = []
    for (let day = 5; day >= 1; day--) {
      for (let h = agent.hours[0]; h < agent.hours[1]; h += 3) times.push(c.at(day, h, 7 + (h % 5) * 9))
    }
    times.push(c.ago(lastSeen[agent.id]!))
    times.forEach((at, i) => {
      const state = i === times.length - 1 && agent.id === 'home-bot' ? 'idle' : i % 4 === 3 ? 'idle' : 'working'
      steps.push({
        at,
        run: () => {
          const cursor = latestEventId(t)
          appendEvent(t.db, t.replicaId, {
            type: 'status',
            stream: 'presence',
            room: 'status',
            from_agent: agent.id,
            to_agent: '*',
            at,
            body: `${agent.id} watching: mempalace logstream watch --agent ${agent.id} --follow (cursor ${cursor ?? 'tip'}) — ${state}`,
            metadata: {
              harness: agent.harness,
              machine: agent.machine,
              state,
              cursor,
              filters: { to_agent: [agent.id], exclude_from_agent: [agent.id] }
            }
          })
        }
      })
    })
  }
  return steps
}

const TOPICS = [
  {
    stream: 'project/muse',
    topic: 'hub',
    lines: [
      'S048: event mapping draft is in build.md, please review the ack rules',
      'logstream list --json 对比上游模板: body 逐字一致 ✅',
      'hlc 同一毫秒内 counter 递增，测了 10k 次没有重复',
      'MCP muse_task_create 的 base_commit 校验和上游同一条错误信息',
      '别手写 event.ack，用 mempalace_event_ack，否则 ack_of 会漏',
      'rc1 打包完成，等 QA (linux-gemini) 跑 S052'
    ]
  },
  {
    stream: 'project/muse',
    topic: 'release',
    lines: [
      'S053: 周五 18:00 冻结 main，release 分支由 GM 切',
      'v2.23.0 CHANGELOG 草稿已写，缺 hub 一节',
      'README badges 还是 v2.22.0，发版前记得改',
      'Release checklist 第 7 项: 刷新 Releases 页面确认 Latest'
    ]
  },
  {
    stream: 'project/dya',
    topic: 'offline-cache',
    lines: [
      '#212 复现了: 过期证书 isValid 仍返回 true',
      'TTL 24h 写死在 cache.ts，GM 希望可配置',
      'Android 真机上离线模式验证通过 (Pixel 7)',
      'iOS 模拟器时间改到明年，证书显示 已过期 ✅',
      'release/1.3 上 vitest 41 passed'
    ]
  },
  {
    stream: 'project/dya',
    topic: 'release',
    lines: ['商店截图需要 v1.3.0 的新 UI，GROWTH 在做', '隐私声明加了健康数据一节', '回滚预案: 保留 v1.2.4 的构建 48 小时']
  },
  {
    stream: 'project/atlas',
    topic: 'oom',
    lines: [
      'nightly run: OOM at 620k docs, RSS 6.3 GB',
      'RSS 采样: 每批 +9.8 MB，从不回落 → 全部留在内存',
      'indexAll() buffers the whole corpus before writing. That is the leak.',
      '复现脚本 scripts/index-all.mjs --docs 1000000 已提交',
      '流式 flush 后估计峰值 1.1 GB',
      'disk at 71% on the NUC, FTS5 index is 38 GB'
    ]
  },
  {
    stream: 'project/atlas',
    topic: 'search',
    lines: ['normalise() 需要 NFKC，不然全角搜不到', 'HNSW vs IVF: 先修 OOM 再谈换索引', 'query API 分页游标用 rowid，不用 offset']
  }
] as const

const REVIEW_LINES = [
  'LGTM, one nit: keep the trailing newline in the patch',
  'please add a test for the expired case',
  '这里的 TTL 单位是毫秒还是秒？',
  'nit: 错误信息请逐字用上游的文案',
  'approve ✅ — base commit matches release/1.3',
  'changes requested: base_commit 不能写 main，要写 sha'
]

const CI_LINES = [
  'npm test: 41 passed (12.3 s)',
  'bash tests/search.sh: 14 passed',
  'vitest: 128 passed, 0 failed',
  'lint: 0 problems',
  'nightly index: 1,000,000 docs in 9m41s ✅'
]

/** Chat, review and CI events: `count` of them at seeded times over the last five days. */
export function chatterSteps(c: DemoClock, t: HubTarget, count = 250): Step[] {
  const rand = seededRandom(0x6d757374)
  const steps: Step[] = []
  const windowMs = 5 * 86_400_000
  for (let i = 0; i < count; i++) {
    const at = new Date(c.now.getTime() - 3 * 60_000 - Math.floor(rand() * windowMs))
    const from = pick(rand, AGENTS).id
    const others = AGENTS.filter((a) => a.id !== from).map((a) => a.id)
    const kind = rand()
    const lane = pick(rand, TOPICS)
    let input: Parameters<typeof appendEvent>[2]
    if (kind < 0.7) {
      input = {
        type: 'chat.message',
        stream: lane.stream,
        room: 'rooms',
        topic: lane.topic,
        from_agent: from,
        to_agent: rand() < 0.3 ? '*' : pick(rand, others),
        body: pick(rand, lane.lines),
        at
      }
    } else if (kind < 0.88) {
      input = {
        type: 'review.comment',
        stream: lane.stream,
        room: 'reviews',
        topic: lane.topic,
        from_agent: from,
        to_agent: pick(rand, others),
        body: pick(rand, REVIEW_LINES),
        metadata: { verdict: rand() < 0.6 ? 'comment' : 'approve' },
        at
      }
    } else {
      input = {
        type: 'ci.result',
        stream: lane.stream,
        room: 'status',
        topic: 'ci',
        from_agent: from,
        to_agent: '*',
        body: pick(rand, CI_LINES),
        metadata: { duration_s: Math.round(rand() * 600) / 10, ok: true },
        at
      }
    }
    const frozen = input
    steps.push({ at, run: () => void appendEvent(t.db, t.replicaId, frozen) })
  }
  return steps
}

/**
 * A board-meeting exchange between two C-suite advisor agents (the invocation protocol): a
 * correct invocation, a circular one Muster flags, and the BLOCKED answer the protocol asks for.
 */
export function boardSteps(c: DemoClock, t: HubTarget): Step[] {
  const lane = { stream: 'project/dya', room: 'rooms', topic: 'board-pricing' }
  const msgs = [
    {
      ago: 95,
      from: 'cro',
      to: 'cfo',
      body: 'V1.4 定价讨论，先问 CFO:\n[CHAIN: cro → cfo]\n[INVOKE:cfo|¥18/月 的订阅价对 runway 的影响?]'
    },
    {
      ago: 88,
      from: 'cfo',
      to: 'cro',
      body: 'Before I answer I need the pipeline.\n[CHAIN: cro → cfo]\n[INVOKE:cro|Pipeline for the next 90 days?]'
    },
    {
      ago: 80,
      from: 'cfo',
      to: 'cro',
      body: '[BLOCKED: cannot invoke cro — circular call detected in chain cro→cfo]\nState assumption used instead: pipeline flat vs last month (¥1.2M)'
    }
  ]
  return msgs.map((m) => {
    const at = c.ago(m.ago)
    return {
      at,
      run: () =>
        void appendEvent(t.db, t.replicaId, { type: 'chat.message', ...lane, from_agent: m.from, to_agent: m.to, body: m.body, at })
    }
  })
}
