/**
 * The demo's satellite project `atlas` (a document indexer run by the home bot): BUILD, QA,
 * RESEARCH and OPS roles, an archived QA report, and its small source tree.
 */
import type { DemoContext, DemoFiles } from './clock'

const F = '```'

function build({ clock: c }: DemoContext): string {
  return `<!-- L0: v0.4.1 | S050 索引器 OOM 排查 (P0) | 🔴夜间索引失败x3, hub任务已派发 -->
# ATLAS 开发状态 (Build)

> 最后更新: ${c.ymdhm(c.at(0, 7, 50))} (CST)
> 主力 agent: \`home-bot\` (夜间) + \`mac-claude\` (白天 review)。

## 📐 职责边界

| 归本文件 (.muse/build.md) | 归 research.md | 归 ops.md |
|--------------------------|----------------|-----------|
| 索引器 / 查询 API | 算法选型 | home-bot 调度 |
| 性能优化 | benchmark 方案 | 磁盘 / 内存监控 |

## 🛠️ 技术栈

| 层 | 技术 |
|---|------|
| **索引** | Node 20 + \`src/indexer/batch.ts\` (流式分批) |
| **存储** | SQLite FTS5 |

## ⏳ 待办

#### P0 — 近期
- [ ] **S050 OOM**: \`batch.ts\` 把整个批次的文档留在内存里 — 改为流式 flush
- [ ] 复现脚本: 100 万文档, \`--max-old-space-size=2048\`
- [x] 夜间任务加 RSS 采样 ✅ ${c.md(c.at(2, 3, 0))}

#### P1 — 下版本
- [ ] 增量索引 (mtime + sha)
- [ ] 查询 API 分页游标

## 📡 接收战略指令

### S044→ATLAS/BUILD (${c.md(c.at(15, 10, 0))}) — ✅ 已接收 ${c.mdhm(c.at(15, 11, 30))}
> **索引 100 万文档 < 10 min**。先做 benchmark，再决定是否换向量索引。

## 📡 QA→BUILD 通知

### 📡 QA→BUILD 通知 (${c.ymdhm(c.at(1, 23, 12))})

> ❌ **v0.4.2-rc1 夜间回归 FAIL** — home-bot 索引 62 万文档时 OOM (RSS 6.3 GB)

🟡 待 BUILD 处理
`
}

function qa({ clock: c }: DemoContext): string {
  return `<!-- L0: v0.4.1 | 夜间回归 FAIL (OOM) | 🔴1 FAIL, 待复验 -->
# 🔍 ATLAS QA

> QA agent: \`linux-gemini\`。报告模板如下，历史报告在 \`.muse/archive/qa_reports.md\`。

## Report Template

${F}markdown
## QA Report — [run]
### AC Verification
| # | AC | Pass? | Evidence |
## Verdict
${F}

## 📡 指令接收队列

> 暂无待处理指令

## Recent QA Results

### ${c.ymd(c.at(1, 23, 12))} 夜间回归 — ❌ FAIL
- 62 万文档时 OOM, RSS 6.3 GB (\`--max-old-space-size=4096\`)
- 复现: \`node scripts/index-all.mjs --docs 1000000\`
`
}

function research({ clock: c }: DemoContext): string {
  return `<!-- L0: v0.4.1 | 向量索引选型 HNSW vs IVF | 调研中, 结论待写入 squad notes -->
# ATLAS 调研 (Research)

> 最后更新: ${c.ymdhm(c.at(4, 15, 0))} (CST)

## 📐 职责边界

| 归本文件 | 归 build.md |
|---------|------------|
| 算法选型 / benchmark 设计 | 实现 |

## 🎯 TODO

- [x] FTS5 基线: 100 万文档 12 min ✅
- [ ] HNSW (hnswlib-node) vs IVF 内存对比
- [ ] 结论写入 \`refs/notes/squad/research\`

## 📊 Benchmark

| 方案 | 100 万文档耗时 | 峰值 RSS |
|------|---------------|---------|
| FTS5 (当前) | 12 min | 6.3 GB (OOM 边缘) |
| FTS5 + 流式 flush | 9.5 min (估) | 1.1 GB (估) |
`
}

function ops({ clock: c }: DemoContext): string {
  return `<!-- L0: v0.4.1 | home-bot 夜间任务巡检 | 🔴OOM x3, 磁盘 71% -->
# ATLAS 运维 (Ops)

> home-bot 每晚 02:00 跑全量索引，结果以 \`status\` 事件发到 hub。

## ⏳ 待办

- [ ] 夜间任务失败自动发 \`task.reply\` (blocked) 而不是静默
- [x] RSS 采样每 30 s 写日志 ✅ ${c.md(c.at(2, 3, 0))}
- [ ] 磁盘 > 80% 告警
`
}

/** atlas's small source tree. */
export function atlasSource(): DemoFiles {
  return {
    'README.md': '# ATLAS\n\nLocal document indexer (SQLite FTS5), run nightly by home-bot.\n',
    'src/indexer/batch.ts': `export interface Doc {
  id: string
  text: string
}

/** Indexes documents in batches of \`size\`. */
export async function indexAll(docs: AsyncIterable<Doc>, write: (batch: Doc[]) => Promise<void>, size = 5000): Promise<number> {
  const all: Doc[] = []
  for await (const doc of docs) all.push(doc)
  for (let i = 0; i < all.length; i += size) await write(all.slice(i, i + size))
  return all.length
}
`,
    'src/query/search.ts': `export function normalise(query: string): string {
  return query.trim().toLowerCase()
}
`
  }
}

/** Every file of the atlas project except memory. */
export function atlasFiles(ctx: DemoContext): DemoFiles {
  return {
    '.muse/build.md': build(ctx),
    '.muse/qa.md': qa(ctx),
    '.muse/research.md': research(ctx),
    '.muse/ops.md': ops(ctx),
    '.muse/archive/qa_reports.md': `# QA 历史报告\n\n## ${ctx.clock.ymd(ctx.clock.at(35, 10, 0))} v0.3.0 — ✅ PASS 6/6\n`,
    ...atlasSource()
  }
}
