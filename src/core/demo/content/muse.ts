/**
 * The demo's hub project `muse`: the global strategy (every directive form, sent from here),
 * the `paths.md` config, the GM role and an archived strategy file. Text imitates the real MUSE
 * role files (mixed Chinese/English, emoji headers, tables).
 */
import type { DemoContext, DemoFiles } from './clock'

const F = '```'

/** `.muse/strategy.md`: spec-conformant L0, the outgoing directive queue (SPEC + LOOSE forms). */
export function museStrategy({ clock: c, paths, root }: DemoContext): string {
  const s048 = c.at(3, 10, 12)
  const s049 = c.at(2, 9, 30)
  return `<!-- L0: v2.22.0 | S053 周五冻结 main + hub 接入 | 🟡5待拉取, S048✅, S049✅ -->
# 🧭 全局战略 (Strategy)

> 最后更新: ${c.ymdhm(c.at(0, 8, 55))} (CST)
> 每次 \`/resume strategy\` 时读取此文件。MUSE / DYA / ATLAS 三个项目的战略指令都从这里发出。
>
> ⚠️ **本文件只发指令，不写代码。**
> MUSE 开发 → .muse/build.md
> DYA 全局 → ${paths.dya}/.muse/gm.md
> ATLAS 开发 → ${paths.atlas}/.muse/build.md

## 📐 职责边界

| 归本文件 (.muse/strategy.md) | 归各项目 gm.md | 归各项目 build.md |
|-----------------------------|----------------|-------------------|
| 跨项目优先级 | 项目路线图 | 代码实现 |
| 战略指令 (S0XX) 发布 | 版本发布决策 | Bug 修复 |
| Agent 机时分配 | 用户反馈分类 | 技术架构 |
| 季度目标 | 跨角色协调 | 测试 + patch 提交 |

---

## 🎯 本季度目标

| 项目 | 目标 | 当前 | 状态 |
|------|------|------|:----:|
| MUSE | v3.0 + Show HN | v2.22.0, Stars=2 | 🟡 |
| DYA | V1.3.0 健康证明 GA | release 分支已切 | ✅ |
| ATLAS | 索引 100 万文档 < 10 min | 12 min, 夜间 OOM | 🔴 |

## 🤖 Agent 舰队

| Agent | 机器 | Harness | 主要负责 |
|-------|------|---------|---------|
| \`mac-claude\` | MacBook Pro (M3) | Claude Code | MUSE/BUILD, 战略执行 |
| \`win-codex\` | Windows 台式机 | Codex CLI | DYA/BUILD |
| \`home-bot\` | 家里的 NUC | Hermes | ATLAS 夜间索引, 巡检 |
| \`linux-gemini\` | Linux 构建机 | Gemini CLI | QA 回归, CI |

> 所有 agent 共用一个 MemPalace hub: \`${root}/hub\`。委派走 \`task.request\`，交付走 \`patch.ready\`。

---

## 📡 战略指令队列

📡 **S053→ALL**: 🟡 **本周五 release 冻结 main 分支**
> 周五 18:00 起所有项目 main 只接受 fix。release 分支由各项目 GM 切。
> 冻结期间 agent 的 patch 一律走 MemPalace hub (\`patch.ready\`)，由操作员在 Muster 里 Apply。

📡 **S052→QA**: 🟡 **v2.23.0 回归 — hub 接入 + MCP Server**
> 范围: logstream append / ack / task create 三条路径 + MCP 6 工具回归。
> AC 见下方「S052 详情」。错误路径至少 3 个 (锁库 / 坏 sha / 无效 base commit)。

📡 **S051→MUSE/GROWTH**: 🟡 **Show HN 重启评估**
> Stars 仍是个位数。评估 v2.23.0 (hub 接入 + Muster 控制台) 是否足以作为 Show HN 卖点，给出 Go/No-Go。

📡 **S050→ATLAS/BUILD**: 🟡 **索引器内存泄漏排查 (P0)**
> home-bot 夜间全量索引连续 3 次 OOM (RSS > 6 GB)。先写复现脚本再修，patch 走 hub，base commit 用 tag v0.4.1。

📡 **S049→DYA/GM**: ✅ **V1.3.0 发布节奏对齐 (健康证明 GA)** — 已传递 ${c.ymdhm(s049)}
> V1.3.0 = 健康证明 GA + 离线模式。GM 负责发布 checklist，BUILD 负责 release 分支。

📡 **S048→MUSE/BUILD**: ✅ **MemPalace hub 接入 (logstream v4)** — 已传递 ${c.ymdhm(s048)}
> 接入 \`logstream.sqlite3\`: task.request → claim → patch.ready → applied 全闭环。
> 所有 ack 必须用 \`mempalace_event_ack\`，不要手写 event.ack。

### 📜 历史指令 (旧格式，未迁移)

📡 S041→MUSE/BUILD: ✅ 竞品深度调研回传 — T3 定位 + 技术进化路径
📡 S031→ATLAS/BUILD: 🟡 OpenClaw 兼容性验证 (搁置)
📡 S025→DYA/GM: V1.2.0 加入健康证明功能

---

## 📋 S052 详情 (QA AC)

| # | AC | 验证方式 |
|---|----|---------|
| 1 | \`task create\` 写出的 body 与上游逐字一致 | \`mempalace logstream list --json\` 对比 |
| 2 | claim → patch.ready → applied 闭环 | Muster 线程视图显示 applied |
| 3 | 坏 sha 的 patch 不能 Apply | Muster 显示 mismatch, Apply 按钮禁用 |
| 4 | 锁库 10 s 内重试成功 | 另一个进程 \`BEGIN IMMEDIATE\` 持锁 5 s |
| 5 | MCP 6 工具全部回归 PASS | \`muster mcp\` + JSON-RPC 脚本 |

**错误路径**: 锁库超时 / 伪造 sha / \`base_commit=main\` 被拒 (“task base commit must be a hexadecimal Git object id”)

---

## 📊 资源分配 (本周)

| Agent | MUSE | DYA | ATLAS |
|-------|:----:|:---:|:-----:|
| mac-claude | 60% | 20% | 20% |
| win-codex | 10% | 80% | 10% |
| home-bot | — | — | 100% (夜间) |
| linux-gemini | 40% QA | 30% QA | 30% QA |
`
}

/** `.muse/paths.md`: a config file (KEY: value inside a fence), not a role. */
export function musePaths({ paths }: DemoContext): string {
  return `# 路径配置 (paths)

> \`/sync\` 和 \`/resume\` 用这些绝对路径找跨项目文件。**不是角色文件。**

${F}
STRATEGY_PATH: ${paths.muse}/.muse/strategy.md
MUSE_ROOT: ${paths.muse}
DYA_ROOT: ${paths.dya}
ATLAS_ROOT: ${paths.atlas}
${F}
`
}

/** `.muse/gm.md`: the real-style long L0 (2 pipes, over 120 chars) and a `## 🎯 TODO` section. */
export function museGm({ clock: c }: DemoContext): string {
  return `<!-- L0: v2.22.0 | Stars=2, Core Skills=5, Toolkit=42, Eco=7, Workflows=8, Hub接入🟡(S048), Muster控制台试用中, Show HN待评估(S051), 57skills | 🟡S053冻结 -->
# MUSE 项目总管 (GM)

> 最后更新: ${c.ymdhm(c.at(1, 21, 40))} (CST)
> 每次 \`/resume gm\` 时读取此文件。
>
> ⚠️ **本文件管 MUSE 项目全局。**
> 开发细节 → .muse/build.md
> 开源推广 → .muse/growth.md
> 战略对齐 → .muse/strategy.md (S048/S053)

## 📐 职责边界

| 归本文件 (.muse/gm.md) | 归 build.md | 归 growth.md |
|------------------------|-------------|-------------|
| 路线图和版本规划 | 框架开发 | GitHub stars 增长 |
| 跨角色优先级仲裁 | setup.sh/工作流维护 | 社区运营 |
| 版本发布决策 | Skill/Workflow 开发 | 社媒推广 |
| 战略对齐 (S048) | Bug 修复 | README/文档优化 |

---

## 📦 当前版本: **v2.22.0**

| 指标 | 当前 | 目标 |
|------|------|------|
| GitHub Stars | 2 | 100 (Show HN 后) |
| Skills | 57 | 60+ |
| MCP 工具 | 6 | 8 (event/task) |
| Hub 接入 | 开发中 | v2.23.0 |

## 🎯 TODO

- [x] v2.22.0 发布 (Memory Loss Prevention) ✅ ${c.md(c.at(6, 13, 42))}
- [x] Muster 控制台试用 — 三个项目全部注册 ✅
- [ ] **v2.23.0 发版决策** — 等 QA S052 回归结果
- [ ] S053 周五冻结: 通知 GROWTH 暂停发帖节奏
- [ ] Show HN Go/No-Go (S051，GROWTH 给结论后由 GM 拍板)
- [ ] 路线图 v3.0 更新 (hub + 多 agent 协作)

## 📋 路线图

### v2.23 — 近期
- [ ] MemPalace hub 接入 (S048)
- [ ] MCP 新增 \`muse_event_list\` / \`muse_task_create\`

### v3.0 — 中期
- [ ] Show HN 发布
- [ ] 第三方社区 Skill 贡献流程

---

## 📡 跨项目同步指令

| 指令 | 干什么 |
|------|--------|
| \`/sync strategy\` | 读取 \`.muse/strategy.md\` 的待拉取指令 |
| \`/sync build\` | 查看 build.md 当前开发状态 |
| \`/sync growth\` | 查看 growth.md 推广进展 |
`
}

/** `.muse/archive/strategy-archive.md`: old directives moved out of strategy.md (not a role). */
export function museStrategyArchive({ clock: c }: DemoContext): string {
  const old = c.at(40, 10, 0)
  return `# 战略指令归档 (${c.ymd(old)} 之前)

> 从 strategy.md 移出，保持主文件 < 500 行。

📡 **S040→MUSE/GROWTH**: ✅ **小红书黑客松巅峰赛内容计划** — 已传递 ${c.ymdhm(c.at(41, 10, 38))}
> 梗图先行 #vibecoding，每周 3-4 帖。

📡 **S033→MUSE/GROWTH**: 🟡 **Awesome list 批量提交**
> 7 个 awesome list 的 PR 文案统一口径。

📡 **S029→MUSE/BUILD**: ✅ **QA SOP 修复** — 已传递 ${c.ymdhm(c.at(44, 16, 0))}
> \`.muse/qa.md\` 已创建（速查 + 7 步 SOP + Report 模板）。
`
}

/** Every file of the muse project's `.muse/` that this module owns. */
export function museFiles(ctx: DemoContext): DemoFiles {
  return {
    '.muse/strategy.md': museStrategy(ctx),
    '.muse/paths.md': musePaths(ctx),
    '.muse/gm.md': museGm(ctx),
    '.muse/archive/strategy-archive.md': museStrategyArchive(ctx)
  }
}
