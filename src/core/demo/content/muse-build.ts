/**
 * The demo's `muse/.muse/build.md`: over 500 lines (a long version history buries its
 * directives, as real build files do), a 1-pipe L0 over 120 characters, `### ⏳ 待办 (按优先级)`
 * with `#### P0 — 近期` sub-headers, NOTICE-form notices and HEAD-form received directives.
 */
import { createHash } from 'node:crypto'
import type { DemoClock, DemoContext } from './clock'

const TITLES = [
  'Memory Loss Prevention',
  'Governance Repositioning',
  'Benchmark Suite',
  'TF-IDF Search',
  'Online Dashboard',
  'VS Code Extension',
  'Web Dashboard',
  'Skill Marketplace',
  'convert.sh 兼容层',
  'MCP Server',
  'Session Checkpoint',
  'Semantic Compression',
  'Auto Memory Capture',
  'L0 分层加载',
  'SOP 同步修复',
  '跨项目配置',
  'Multi-tool installer',
  'Pre-Flight Check',
  '/settings 工作流',
  'Cheat Sheet',
  'GM 角色',
  '/start onboarding',
  'QA 角色',
  '多项目架构'
]
const ADDED = [
  '`scripts/search.sh` 零依赖 TF-IDF 检索 (memory + role files)',
  '`/bye` Step 4.7 自动记忆捕获 (≤5 条/次)',
  '`skills/core/agent-protocol/SKILL.md` 角色文件协议规范',
  '`scripts/dashboard.sh` → `.muse/dashboard.html`',
  '`install.sh --tool openclaw` 自动检测',
  '`resume.md` Step ④.5 L0 扫描',
  '`/distill` 结构化提取 [FACT]/[DECISION]/[LESSON]',
  'MCP `muse_search_memory` 支持 scope=recent',
  '`skill-discovery.sh` categories/stats/export',
  'README_CN 同步 + badges',
  '`convert.sh` 导出 .cursorrules / Windsurf / Copilot',
  '`archive-memory.sh --days 30 --dry-run`'
]
const FIXED = [
  '`bye.md` convo 序号三步法 (重复序号)',
  '`sync.md` BUILD→QA 反向同步丢失',
  'setup.sh `sed -i` macOS→Linux fallback',
  'MCP 路径遍历 (`../../etc/passwd`) 返回 isError',
  'L0 超过 120 字符时 resume 截断',
  'Windows CRLF 导致 L0 解析失败',
  'memory 搜索中文分词为空',
  '`/resume crash` 读不到 CRASH_CONTEXT.md'
]
const CHANGED = ['Core Skills 英文化', 'README 工具表重排', 'CHANGELOG 格式改为 Keep a Changelog', '角色文件 > 500 行提示归档']

const FILES = [
  'workflows/bye.md',
  'workflows/resume.md',
  'scripts/mcp-server.sh',
  'setup.sh',
  'install.sh',
  'README.md',
  'skills/core/SKILL.md'
]

function shortSha(seed: string): string {
  return createHash('sha1').update(seed).digest('hex').slice(0, 7)
}

/** The generated `## 📜 版本历史` section: one block per released version, newest first. */
function versionHistory(c: DemoClock): string {
  const versions: string[] = []
  for (let m = 22; m >= 0; m--) versions.push(`v2.${m}.0`)
  for (let m = 12; m >= 0; m--) versions.push(`v1.${m}.0`)
  for (let m = 12; m >= 1; m--) versions.push(`v0.${m}.0`)
  const blocks = versions.map((v, i) => {
    const date = c.at(6 + Math.round(i * 1.6), 13, 40)
    const pickFrom = (list: readonly string[], k: number) => list[(i * 7 + k * 3) % list.length]!
    const lines = [
      `### ${v} (${c.md(date)}) — ${TITLES[i % TITLES.length]}`,
      `- **Added**: ${pickFrom(ADDED, 0)}`,
      `- **Added**: ${pickFrom(ADDED, 1)}`,
      i % 3 === 0 ? `- **Changed**: ${pickFrom(CHANGED, 0)}` : `- **Fixed**: ${pickFrom(FIXED, 2)}`,
      `- **Fixed**: ${pickFrom(FIXED, 0)}`,
      `- 影响文件: \`${FILES[i % FILES.length]}\`, \`${FILES[(i + 3) % FILES.length]}\`, \`CHANGELOG.md\``,
      `- commit \`${shortSha(v)}\` · QA ${8 + (i % 5)}/${8 + (i % 5)} PASS${i % 4 === 0 ? ' · GitHub Release ✅' : ''}`,
      ''
    ]
    return lines.join('\n')
  })
  return blocks.join('\n')
}

/** `.muse/build.md` of the muse project. */
export function museBuild({ clock: c }: DemoContext): string {
  const s048 = c.at(3, 10, 12)
  const s048r = c.at(3, 10, 40)
  const qaNew = c.ago(168)
  const qaOld = c.at(2, 20, 48)
  const growth = c.at(1, 17, 6)
  const growthR = c.at(1, 17, 45)
  return `<!-- L0: v2.22.0 | S048 Hub接入🟡, Memory Loss Prevention✅, TF-IDF Search✅, Benchmark✅, Skill Marketplace✅, Web Dashboard✅, VS Code Extension✅, Online Dashboard✅, 57skills -->
# MUSE 开发状态 (Build)

> 最后更新: ${c.ymdhm(c.at(0, 9, 20))} (CST) — S048 hub 接入开发中
> 每次 \`/resume build\` 时读取此文件。
>
> ⚠️ **本文件只管开发。**
> 项目全局 → .muse/gm.md
> 开源推广 → .muse/growth.md

## 📐 职责边界

| 归本文件 (.muse/build.md) | 归 gm.md | 归 growth.md |
|--------------------------|----------|-------------|
| 框架代码开发 | 路线图/版本规划 | README 更新 |
| setup.sh 维护 | 跨角色优先级 | 社媒内容 |
| Skill/Workflow 开发 | 版本发布决策 | 社区互动 |
| Bug 修复 | 战略对齐 | 竞品分析 |
| 技术架构 | 用户反馈分类 | 文档翻译 |

---

## 🛠️ 技术栈

| 层 | 技术 |
|---|------|
| **核心** | 纯 Markdown (零代码依赖) |
| **安装** | Bash (setup.sh / install.sh) |
| **MCP** | \`scripts/mcp-server.sh\` (Bash, JSON-RPC over stdio) |
| **Hub** | MemPalace logstream (\`logstream.sqlite3\`, WAL) |

## 📦 当前版本: **v2.22.0**

### ⏳ 待办 (按优先级)

#### P0 — 近期
- [x] **S048 hub 接入设计** — task.request / claim / patch.ready / ack 四种事件映射 ✅ (${c.md(s048r)})
- [ ] **MCP \`muse_task_create\`** — 复用上游 body 模板 (逐字一致)
- [ ] **patch 提交前自检** — 末尾换行 + CRLF 检查 (上游两条 warning)
- [ ] S052 AC 整理后写入 qa.md「BUILD→QA」区域

#### P1 — 下版本
- [x] \`scripts/search.sh\` 支持 \`--scope recent\` ✅
- [ ] \`/bye\` 自动发 status 事件到 hub (presence)
- [ ] dashboard 显示 hub 待处理 patch 数

#### P2 — 下阶段 (按优先级)
- [ ] VS Code extension 接 hub SSE
- [ ] 角色文件 > 800 行自动归档脚本

---

## 🎯 BUILD→QA: 🔲 待验收 AC (v2.23.0-rc1)

> Build Source: v2.23.0-rc1 / main / commit \`${shortSha('rc1')}\`

| # | AC | 测试步骤 |
|---|----|---------|
| 1 | \`muse_task_create\` body 与上游逐字一致 | MCP 调用后 \`mempalace logstream list --json\` |
| 2 | base_commit=\`main\` 被拒 | 错误信息含 "not a branch or tag" |
| 3 | patch 缺末尾换行时给 warning | \`artifact put\` 输出 warnings |

---

## 📡 GROWTH→BUILD 通知

### 📡 GROWTH→BUILD (${c.ymdhm(growth)}) — ✅ 已接收 ${c.mdhm(growthR)}

> **Dashboard 增加 hub 面板 (P1)**

**需求**: dashboard.html 显示 hub 里的待处理 patch 和 agent 在线状态，用于 Show HN 配图。

**验收标准**:
- [x] 显示 agent presence (最新 status 事件)
- [ ] 显示待 Apply 的 patch 数

---

## 📡 QA→BUILD 通知

### 📡 QA→BUILD 通知 (${c.ymdhm(qaNew)})

> ❌ **BUILD→QA v2.23.0-rc1 — AC3 FAIL**
> Verifier: QA identity (linux-gemini, 独立对话)
> Build Source: v2.23.0-rc1 / main / commit \`${shortSha('rc1')}\`

**结果**: 2/3 AC ✅ + 1 ❌ — patch 缺末尾换行时没有 warning，\`git apply\` 直接报 corrupt patch。

🟡 待 BUILD 处理

---

### 📡 QA→BUILD 通知 (${c.ymdhm(qaOld)})

> ✅ **BUILD→QA v2.22.0 — 12/12 AC 全部 PASS**
> Verifier: QA identity (独立对话)

**结果**: 12/12 AC ✅ + 错误路径 3/3 ✅ + 0 Issues

✅ BUILD 无需操作

---

## 📡 已接收战略指令

### S048→MUSE/BUILD (${c.md(s048)}) — ✅ 已接收 ${c.mdhm(s048r)}
> **MemPalace hub 接入 (logstream v4)**。接入 \`logstream.sqlite3\`: task.request → claim → patch.ready → applied 全闭环。所有 ack 必须用 \`mempalace_event_ack\`，不要手写 event.ack。

### S043→MUSE/BUILD (${c.md(c.at(12, 15, 50))}) — ✅ 已接收 ${c.mdhm(c.at(12, 15, 50))}
> **agency-agents 吸收 + 兼容层 (P1, ~5h)**。convert.sh 一键导出 .cursorrules/Windsurf/Copilot/OpenClaw 格式。

### S041→MUSE/BUILD (${c.md(c.at(20, 9, 50))}) — ✅ 已接收 ${c.mdhm(c.at(20, 16, 8))}
> **🔴 MUSE 竞品深度调研回传 — T3 定位 + 技术进化路径 (P0)**。MUSE 独有: 战略指令队列 + 角色文件隔离。

---

## 📋 CHANGELOG 维护规则

> ⚠️ **每次 feat/fix commit 时，必须同步更新 \`CHANGELOG.md\`。**

| 场景 | 操作 |
|------|------|
| 新功能 \`feat(...)\` | 在当前版本下 \`### Added\` 中加一行 |
| Bug 修复 \`fix(...)\` | 在当前版本下 \`### Fixed\` 中加一行 |
| 版本发布 (tag) | 执行 Release Checklist |

---

## 📜 版本历史 (CHANGELOG 摘要)

> 完整记录见 \`CHANGELOG.md\`。本节太长，下次 \`/bye\` 时归档到 \`.muse/archive/\`。

${versionHistory(c)}
---

## Git

- 当前分支: \`main\`
- 最新 tag: \`v2.22.0\`
`
}
