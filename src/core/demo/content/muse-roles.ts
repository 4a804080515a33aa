/**
 * The demo's muse GROWTH and QA roles. GROWTH has a spec-conformant but stale L0 (v2.21.0 while
 * the repo is tagged v2.22.0) and HEAD-form received directives (✅ 已拉取 / 🟡 待执行). QA has the
 * real 0-pipe, version-less L0, a report template with `##` lines inside a code fence, and a
 * directive that MUSE's MCP server appended after the closing footer.
 */
import type { DemoContext } from './clock'

const F = '```'

/** `.muse/growth.md` of the muse project. */
export function museGrowth({ clock: c }: DemoContext): string {
  return `<!-- L0: v2.21.0 | S051 Show HN 重启评估 | Stars=2, Reddit仍封, 小红书✅ -->
# MUSE 开源推广 (Growth)

> 最后更新: ${c.ymdhm(c.at(2, 13, 42))} (CST)
> 每次 \`/resume growth\` 时读取此文件。
>
> ⚠️ **本文件只管推广和社区。**
> 开发细节 → .muse/build.md
> 项目全局 → .muse/gm.md

## 📐 职责边界

| 归本文件 (.muse/growth.md) | 归 build.md | 归 gm.md |
|--------------------------|-------------|----------|
| GitHub stars 增长 | 框架代码开发 | 路线图规划 |
| 社区运营 | Bug 修复 | 版本发布 |
| 社媒内容 (X/Reddit/HN) | Skill 开发 | 跨角色协调 |
| 竞品分析 | 架构决策 | 优先级仲裁 |

---

## 📊 增长目标

| 指标 | 当前 | 30天目标 | 90天目标 |
|------|------|---------|---------|
| GitHub Stars | 2 | 100 | 500 |
| X Followers (@MythsLabs) | 41 | 200 | 1K |
| 小红书粉丝 | 318 | 1K | 5K |

## 🎯 渠道优先级

| 渠道 | 优先级 | 策略 | 状态 |
|------|:------:|------|:----:|
| **X (Twitter)** | P0 🥇 | Build in Public 线程 | ✅ 每周 2 帖 |
| **小红书** | P0 🥇 | #vibecoding 梗图 | ✅ 3 帖排期中 |
| **Hacker News** | P1 ⏸️ | Show HN — 等 S051 评估 | ⏸️ 帖子 v4 已备 |
| **Reddit** | P1 🚫 | r/ClaudeAI — shadowban 未解除 | ⏳ 被封中 |

---

## ⏳ 待办

- [x] Build in Public 第 4 帖 (hub 多 agent 协作截图) ✅ ${c.md(c.at(2, 11, 0))}
- [ ] **S051 Show HN Go/No-Go** — 需要 v2.23.0 演示视频 (Muster 控制台录屏)
- [ ] Product Hunt 文案更新到 v2.22.0
- [ ] Reddit 申诉第 3 次

---

## 📡 已接收战略指令

### S040→MUSE/GROWTH (${c.md(c.at(41, 10, 38))}) ✅ 已拉取

**小红书黑客松巅峰赛 MUSE 内容计划 (主攻 #vibecoding)**

**内容方向(按优先级)**:
1. **梗图先行 #vibecoding**: "AI写代码写着写着突然开始讨论营销策略..."
2. **#vibecoding「展示作品」**: 终端录屏展示 /resume 恢复 + 角色隔离效果

---

### S033→MUSE/GROWTH (${c.md(c.at(46, 14, 0))}) 🟡 待执行

> **Awesome list 批量提交** — 7 个 list 统一文案，1/7 merged，6 open。

---

## 📡 跨角色同步日志

### ${c.ymdhm(c.at(2, 13, 42))} — BUILD→GROWTH 同步 (v2.22.0 发布)

1. ✅ **v2.22.0 发布** — Memory Loss Prevention (5 层 SOP 修复)
2. 🟡 **hub 接入 (S048)** — 开发中，预计 v2.23.0
`
}

/** `.muse/qa.md` of the muse project. */
export function museQa({ clock: c }: DemoContext): string {
  const mcp = c.ago(50)
  return `<!-- L0: 最近QA: v2.23.0-rc1 AC3 FAIL (patch 末尾换行 warning 缺失), 待BUILD修复后复验, S052未拉取 -->
# 🔍 QA — Quality Assurance

> **Core Principle: The builder and the verifier must be different identities. Self-verification = no verification.**

## 🚀 How to Start QA (Quick Reference)

${F}
New conversation → /resume muse qa → tell the Agent what to verify
${F}

| Scenario | What you say | Agent does |
|----------|-------------|------------|
| Strategy assigns QA | \`/resume muse qa\` → "Execute S0XX QA" | Read AC from strategy.md → verify → output Report |
| Build claims done | \`/resume muse qa\` → "Verify the features build completed" | Read build.md「BUILD→QA」→ verify each |
| Hub task | \`mempalace logstream list --to-agent linux-gemini\` | Claim the task.request, verify, ack applied/failed |

---

## 📋 QA SOP (Step-by-Step)

1. **Confirm AC Source** — strategy.md S0XX 详情 / build.md「BUILD→QA」
2. **Confirm Verification Environment** — terminal / git / hub (\`logstream.sqlite3\`)
3. **Verify Each AC** — actually execute, attach evidence
4. **Test Error Paths** — at least 2 (locked hub, forged sha, bad base commit)
5. **Output QA Report** — template below
6. **Verdict** — PASS only with every AC ✅ and no P0
7. **Result Flow** — write here + \`/sync qa broadcast\` + ack the hub task

## Iron Rules (Non-negotiable)

1. **No self-verification** — build claiming done ≠ done
2. **Evidence > Assertion** — each item must have verifiable evidence
3. **QA is READ-ONLY** — QA only reports, never fixes

---

## QA Report Template

${F}markdown
## QA Report — [Task Name]
**Date**: YYYY-MM-DD
**Verifier**: qa identity (independent from build)
**Build Source**: [which commit / which version]

### AC Verification

| # | AC Description | Pass? | Evidence |
|---|---------------|:-----:|----------|
| 1 | task create body is verbatim | ✅ | [list --json output] |

### Error Paths

| Scenario | Expected | Actual | Pass? |
|----------|----------|--------|:-----:|
| base_commit=main | rejected | rejected | ✅ |

## Verdict
- [ ] ✅ **PASS**
- [ ] ❌ **FAIL** — route back to build
${F}

---

## Recent QA Results

### QA Report — BUILD→QA v2.23.0-rc1 (3 ACs)
**Date**: ${c.ymd(c.ago(170))}
**Verifier**: QA identity (linux-gemini, independent conversation)
**Build Source**: v2.23.0-rc1 / main

| # | AC Description | Pass? | Evidence |
|---|---------------|:-----:|----------|
| AC1 | \`muse_task_create\` body verbatim | ✅ | diff of \`list --json\` vs upstream template: empty |
| AC2 | base_commit=\`main\` rejected | ✅ | "task base commit must be a hexadecimal Git object id (at least 7 characters), not a branch or tag" |
| AC3 | warning for patch without trailing newline | ❌ | no warning; \`git apply\` → "corrupt patch at line 12" |

#### Verdict

- [x] ❌ **FAIL** — Route back to build → AC3

---

<details>
<summary>📦 历史 QA: v2.22.0 — ${c.ymd(c.at(2, 20, 48))} — 12/12 PASS</summary>

12/12 AC ✅ + 3/3 Error Paths ✅ + 0 Issues

</details>

---

*MUSE QA v1.0 — Evidence > Assertion, always.*

### 📡 S054→QA (${c.ymdhm(mcp)}) — 🟡 待处理
> 复验 v2.23.0-rc2: patch 末尾换行 warning 已修
BUILD 已在 rc2 修复 AC3 (\`scripts/patch-check.sh\` 输出上游两条 warning)。请复验 AC3 并补一个 CRLF 错误路径。
`
}
