/**
 * The demo's memory files per project: daily logs (`memory/YYYY-MM-DD.md`, sessions of the last
 * few days including today, one in the older English template, one archived log), `MEMORIES.md`
 * (FACT/DECISION/LESSON entries with tags and a superseded one), `CLAUDE.md` and `USER.md`.
 */
import type { DemoClock, DemoContext, DemoFiles } from './clock'

/** One work session in a daily log. */
interface Session {
  role: string
  start: Date
  minutes: number
  title: string
  done: string[]
  decisions: string[]
  next: string[]
  /** Older MUSE template (`### ✅ Completed` ...). */
  english?: boolean
}

type Plan = Array<
  [
    daysAgo: number,
    hh: number,
    mm: number,
    minutes: number,
    role: string,
    title: string,
    done: string[],
    decisions: string[],
    next: string[]
  ]
>

const PLANS: Record<'muse' | 'dya' | 'atlas', Plan> = {
  muse: [
    [
      4,
      9,
      30,
      150,
      'BUILD',
      'v2.22.0 发布收尾',
      ['CHANGELOG + README badges 更新到 v2.22.0', 'GitHub Release 创建'],
      ['Release checklist 第 7 项改为必做'],
      ['S048 hub 接入设计']
    ],
    [
      3,
      10,
      40,
      200,
      'BUILD',
      'S048 hub 接入设计',
      ['拉取 S048 (✅ 已接收)', '事件映射: task.request / event.ack / patch.ready'],
      ['ack 一律走 `mempalace_event_ack`，不手写'],
      ['MCP `muse_task_create`']
    ],
    [3, 20, 0, 60, 'GROWTH', 'Build in Public 第 4 帖草稿', ['hub 多 agent 协作截图 x3'], ['配图用 Muster 控制台截图'], ['等 S051 评估']],
    [
      2,
      14,
      10,
      120,
      'BUILD',
      'muse_task_create 实现',
      ['body 模板与上游逐字一致', 'base commit 校验 (7-64 hex)'],
      ['correlation id = task_<slug>_<8 hex>'],
      ['patch 提交前自检']
    ],
    [2, 20, 48, 45, 'QA', 'v2.22.0 回归', ['12/12 AC PASS', '错误路径 3/3'], [], ['等 rc1']],
    [1, 17, 45, 90, 'BUILD', 'Dashboard hub 面板 (GROWTH→BUILD)', ['presence 面板'], ['待 Apply patch 数放第二期'], ['rc1 打包']],
    [0, -170, 0, 75, 'QA', 'v2.23.0-rc1 回归', ['AC1 ✅ AC2 ✅', 'AC3 ❌ 缺末尾换行 warning'], ['FAIL 回 BUILD'], ['等 rc2 复验 (S054)']],
    [
      0,
      -60,
      0,
      40,
      'BUILD',
      'rc2: patch warning 修复',
      ['`scripts/patch-check.sh` 输出上游两条 warning'],
      ['warning 文案逐字复制上游'],
      ['通知 QA 复验 (S054 已发)']
    ]
  ],
  dya: [
    [3, 15, 0, 110, 'BUILD', '健康证明 PDF 导出', ['PDF 模板 + 签名二维码'], ['PDF 用系统字体，避免打包中文字体 (+9 MB)'], ['QA 验收']],
    [
      2,
      10,
      5,
      30,
      'GM',
      '拉取 S049 + 切 release/1.3',
      ['S049 ✅ 已接收', 'release/1.3 分支'],
      ['V1.3.0 不含 CRL 同步'],
      ['发布 checklist']
    ],
    [1, 21, 30, 50, 'GM', '用户反馈 #212 分类', ['过期证书仍显示绿色 → P0'], ['发 GM→BUILD 通知 + hub task'], ['BUILD 修复']],
    [
      0,
      -95,
      0,
      55,
      'BUILD',
      '#212 修复 (win-codex)',
      ['claim hub task', '`isValid` 加过期判断'],
      ['过期判断用服务器时间兜底'],
      ['submit patch']
    ]
  ],
  atlas: [
    [3, 2, 0, 180, 'OPS', '夜间全量索引 #1', ['62 万文档时 OOM'], [], ['加 RSS 采样']],
    [2, 2, 0, 185, 'OPS', '夜间全量索引 #2', ['RSS 采样上线', '再次 OOM (6.3 GB)'], ['暂停夜间全量，改增量'], ['S050 排查']],
    [
      1,
      14,
      0,
      90,
      'BUILD',
      'S050 复现',
      ['复现脚本 `scripts/index-all.mjs`'],
      ['`indexAll` 把全部文档留在内存 = 根因'],
      ['流式 flush patch']
    ],
    [0, -240, 0, 60, 'RESEARCH', 'HNSW vs IVF', ['hnswlib-node 内存估算'], ['先修 OOM 再谈换索引'], ['写 squad research note']]
  ]
}

function sessionsOf(c: DemoClock, plan: Plan): Session[] {
  return plan.map(([daysAgo, hh, mm, minutes, role, title, done, decisions, next]) => ({
    role,
    // a negative hour means "that many minutes before now" (today's sessions stay in the past)
    start: hh < 0 ? c.ago(-hh + minutes) : c.at(daysAgo, hh, mm),
    minutes,
    title,
    done,
    decisions,
    next
  }))
}

function renderSession(c: DemoClock, s: Session, n: number): string {
  const end = new Date(s.start.getTime() + s.minutes * 60_000)
  const head = `## [${s.role}] Session ${n}: ${s.title} (${c.hm(s.start)}-${c.hm(end)})`
  const list = (items: string[]) => (items.length ? items.map((i) => `- ${i}`).join('\n') : '- (无)')
  if (s.english) {
    return `${head}\n\n### ✅ Completed\n${list(s.done)}\n\n### 🔑 Decisions\n${list(s.decisions)}\n\n### ➡️ Next\n${list(s.next)}\n`
  }
  return `${head}\n\n### 完成\n${list(s.done)}\n\n### 决策\n${list(s.decisions)}\n\n### ➡️ 下一步\n${list(s.next)}\n`
}

/** `memory/YYYY-MM-DD.md` files for a project, plus an archived old log. */
export function memoryLogs(c: DemoClock, project: 'muse' | 'dya' | 'atlas'): DemoFiles {
  const sessions = sessionsOf(c, PLANS[project]).sort((a, b) => a.start.getTime() - b.start.getTime())
  const byDay = new Map<string, Session[]>()
  for (const s of sessions) byDay.set(c.ymd(s.start), [...(byDay.get(c.ymd(s.start)) ?? []), s])
  const files: DemoFiles = {}
  for (const [day, list] of byDay) {
    const counters = new Map<string, number>()
    const body = list.map((s) => {
      counters.set(s.role, (counters.get(s.role) ?? 0) + 1)
      return renderSession(c, s, counters.get(s.role)!)
    })
    files[`memory/${day}.md`] = `# ${day}\n\n${body.join('\n')}`
  }
  const old = c.at(40, 10, 0)
  const archived: Session = {
    role: 'BUILD',
    start: old,
    minutes: 80,
    title: 'Project bootstrap',
    english: true,
    done: ['`.muse/` created with /start', 'first role files'],
    decisions: ['zero-dependency Markdown only'],
    next: ['first release']
  }
  files[`memory/archive/${c.ymd(old)}.md`] = `# ${c.ymd(old)}\n\n${renderSession(c, archived, 1)}`
  return files
}

/** `MEMORIES.md`: long-term memory with kinds, tags and one superseded entry. */
export function longTermMemory(c: DemoClock, project: 'muse' | 'dya' | 'atlas'): string {
  const src = (daysAgo: number) => `memory/${c.ymd(c.at(daysAgo, 12, 0))}.md`
  const specific: Record<typeof project, string> = {
    muse: `## 版本与发布
- **[FACT] v2.22.0 = Memory Loss Prevention (5 层 SOP 修复)** (source: ${src(4)}) [EPISODIC]
- **[DECISION] Release checklist 第 7 项 (验证 GitHub Release) 为必做** (source: ${src(4)}) [PERMANENT]
- **[FACT] GitHub Stars = 2** (source: ${src(3)}) [DECAY]
`,
    dya: `## 健康证明
- **[DECISION] PDF 用系统字体，不打包中文字体 (+9 MB)** (source: ${src(3)}) [PERMANENT]
- **[LESSON] 证书"有效"必须同时校验签名和过期时间 (#212)** (source: ${src(1)}) [PERMANENT]
`,
    atlas: `## 索引器
- **[LESSON] indexAll 不能把整个语料留在内存 — 流式 flush** (source: ${src(1)}) [PERMANENT]
- **[FACT] FTS5 基线: 100 万文档 12 min** (source: ${src(4)}) [TEMPORAL:${c.ymd(new Date(c.now.getTime() + 30 * 86_400_000))}]
`
  }
  return `# MEMORIES — 长期记忆

> \`/distill\` 与 \`/bye\` Step 4.7 自动写入。格式: \`- **[KIND] 内容** (source: 文件) [TAG]\`

## Hub / 多 Agent 协作
- **[DECISION] 跨机器委派一律走 MemPalace hub (task.request → claim → patch.ready → ack)** (source: ${src(3)}) [PERMANENT]
- **[LESSON] patch 必须保留末尾换行，否则 git apply 报 corrupt patch** (source: ${src(0)}) [PERMANENT]
- **[LESSON] 沉默是 logstream 唯一救不了的失败模式: blocked 也要回复** (source: ${src(2)}) [PERMANENT]
- ~~**[FACT] hub 放在 Dropbox 同步目录里** (source: ${src(9)}) [TEMPORAL:${c.ymd(c.at(9, 0, 0))}]~~ → 已迁到本地 SSD (WAL 不能放网络盘)

${specific[project]}`
}

/** `CLAUDE.md` (agent instructions) and `USER.md` (the operator's profile) at the project root. */
export function rootDocs(ctx: DemoContext, project: 'muse' | 'dya' | 'atlas'): DemoFiles {
  const name = project.toUpperCase()
  return {
    'CLAUDE.md': `# ${name} — Agent Instructions

- 本项目使用 MUSE: 角色文件在 \`.muse/\`，每次 \`/resume ${project} <role>\` 先读 L0 再读角色文件。
- 战略文件 (绝对路径): \`${ctx.paths.muse}/.muse/strategy.md\`
- 记忆: \`memory/YYYY-MM-DD.md\` (当天) + \`MEMORIES.md\` (长期)。\`/bye\` 前必须写当天记忆。
- 协作: MemPalace hub \`${ctx.root}/hub\`。收件箱: \`mempalace logstream list --to-agent <你的 id>\`。
- 交付代码用 \`mempalace_patch_submit\`，只 push 分支不算交付。
`,
    'USER.md': `# USER

- 名字: JC (operator)
- 时区: Asia/Shanghai (CST)
- 偏好: 中文回复，代码和 commit message 用英文
- 机器: MacBook Pro (mac-claude) / Windows 台式机 (win-codex) / 家里 NUC (home-bot) / Linux 构建机 (linux-gemini)
- 审批: 破坏性命令 (\`rm -rf\`, \`git push --force\`, \`npm publish\`) 必须等我批准
`
  }
}

/** Every memory-related file of one project. */
export function memoryFiles(ctx: DemoContext, project: 'muse' | 'dya' | 'atlas'): DemoFiles {
  return {
    ...memoryLogs(ctx.clock, project),
    'MEMORIES.md': longTermMemory(ctx.clock, project),
    ...rootDocs(ctx, project),
    ...(project === 'muse'
      ? {
          'memory/CRASH_CONTEXT.md': `# CRASH CONTEXT\n\n> 上次对话在 ${ctx.clock.ymdhm(ctx.clock.at(1, 18, 2))} 中断 (context 满)。\n\n- 正在做: Dashboard hub 面板\n- 未提交: \`scripts/dashboard.sh\`\n`
        }
      : {})
  }
}
