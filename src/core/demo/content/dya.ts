/**
 * The demo's satellite project `dya` (a health-certificate app): GM, BUILD, GROWTH and an OPS role
 * created by MUSE's `/role` command, so it has NO L0 line. Also its small source tree, which the
 * hub's patches are made against.
 */
import type { DemoContext, DemoFiles } from './clock'

const F = '```'

function gm({ clock: c }: DemoContext): string {
  const s049 = c.at(2, 9, 30)
  return `<!-- L0: v1.3.0 | V1.3.0 健康证明 GA (S049) | release/1.3✅, 🟡GM→BUILD 1 -->
# DYA 项目总管 (GM)

> 最后更新: ${c.ymdhm(c.at(1, 22, 10))} (CST)
> 每次 \`/resume dya gm\` 时读取此文件。战略文件: 见 \`.muse/paths.md\` 的 STRATEGY_PATH。

## 📐 职责边界

| 归本文件 (.muse/gm.md) | 归 build.md | 归 growth.md | 归 ops.md |
|------------------------|-------------|-------------|-----------|
| 版本节奏 | 功能开发 | 应用商店/ASO | 部署/监控 |
| 发布 checklist | release 分支 | 用户社群 | 证书/密钥轮换 |
| 用户反馈分类 | Bug 修复 | 内容 | 备份 |

## 📦 当前版本: **v1.3.0** (release/1.3)

## ⏳ 待办

- [x] release/1.3 分支已切 ✅ ${c.md(c.at(2, 11, 0))}
- [x] 健康证明 PDF 导出 — QA PASS ✅
- [ ] **离线模式缓存过期策略** — BUILD 处理中 (hub task)
- [ ] 发布 checklist 第 4-7 项 (商店截图 / 隐私声明 / 回滚预案 / 公告)
- [ ] S053 周五冻结前合并所有 fix

## 📡 已接收战略指令

### S049→DYA/GM (${c.md(s049)}) — ✅ 已接收 ${c.mdhm(c.at(2, 10, 5))}
> **V1.3.0 发布节奏对齐 (健康证明 GA)**。V1.3.0 = 健康证明 GA + 离线模式。GM 负责发布 checklist，BUILD 负责 release 分支。

### S025→DYA/GM (${c.md(c.at(38, 9, 0))}) ✅ 已拉取
> V1.2.0 加入健康证明功能 (基础版，仅二维码)。

## 🏛️ Board meeting — V1.4 订阅定价 (C-suite advisors)

> 顾问 agent 按 agent-protocol 互相询问 (\`[INVOKE:role|question]\` + \`[CHAIN: ...]\`)。GM 记录。

### Phase 1: framing

| 顾问 | 问题 |
|------|------|
| CFO | [INVOKE:cfo\\|¥18/月 对 runway 的影响?] [CHAIN: ceo → cfo] |
| CMO | [INVOKE:cmo\\|同价位竞品的付费转化率?] [CHAIN: ceo → cfo → cmo] |

### Phase 2: independent analysis

- CRO 想直接问渠道: [INVOKE:cro|渠道能否承接 3 倍流量?]
- [ASSUMPTION: 渠道转化率维持 2.1%]

### Phase 3: critique (executive mentor)

CFO 的 runway 假设与 CRO 的 pipeline 数据矛盾：前者按 3.4% 转化，后者按 2.1%。

### Follow-ups

[CHAIN: cro → cfo → coo]
COO 追问客服容量: [INVOKE:chro|客服需要加几个人?]

[RESPONSE:cfo]
Key finding: ¥18/月 使 runway 从 14 个月延长到 17 个月
Supporting data:
  - 试点付费转化 2.1% → 3.4%
  - 月流失 4.8%
Confidence: medium
Caveat: 试点只覆盖 1,200 名用户
[/RESPONSE]

## 📡 指令队列

### 📡 GM→BUILD 通知 (${c.ymdhm(c.at(1, 22, 5))})

> **release/1.3 冻结前必须修完离线缓存过期 bug** (用户反馈 #212: 过期证书仍显示绿色)

🟡 待 BUILD 处理
`
}

function build({ clock: c }: DemoContext): string {
  return `<!-- L0: v1.3.0 | 离线缓存过期修复 (#212) | hub: #212 patch ready, TTL task open -->
# DYA 开发状态 (Build)

> 最后更新: ${c.ymdhm(c.at(0, 8, 40))} (CST)
> 主力 agent: \`win-codex\` (Windows, Codex CLI)。任务从 hub 领取: \`mempalace logstream watch --agent win-codex\`。

## 📐 职责边界

| 归本文件 | 归 gm.md |
|---------|---------|
| 功能开发 / Bug 修复 | 版本节奏 |
| release 分支维护 | 发布决策 |

## 🛠️ 技术栈

| 层 | 技术 |
|---|------|
| **App** | React Native + TypeScript |
| **证书** | \`src/health/certificate.ts\` (签名校验 + 过期判断) |
| **离线** | \`src/offline/cache.ts\` (SQLite 缓存) |

### ⏳ 待办 (按优先级)

#### P0 — 近期
- [ ] **#212 过期证书仍显示绿色** — hub task 已 claim (win-codex)
- [x] 健康证明 PDF 导出 ✅
- [ ] 离线缓存 TTL 可配置

#### P1 — 下版本
- [ ] 证书吊销列表 (CRL) 同步
- [ ] Android 14 通知权限

## 📡 已接收战略指令

> (本角色暂无直接战略指令 — 由 GM 转达)

## 📡 QA→BUILD 通知

### 📡 QA→BUILD 通知 (${c.ymdhm(c.at(3, 16, 30))})

> ✅ **健康证明 PDF 导出 — 8/8 AC PASS**

✅ BUILD 已处理
`
}

function growth({ clock: c }: DemoContext): string {
  return `<!-- L0: 应用商店截图待更新(v1.3.0), ASO关键词✅, 用户群 1.2K -->
# DYA 增长 (Growth)

> 最后更新: ${c.ymdhm(c.at(3, 19, 0))} (CST)

## 📐 职责边界

| 归本文件 | 归 gm.md |
|---------|---------|
| 应用商店 / ASO | 发布决策 |
| 用户社群 | 用户反馈分类 |

## 🎯 TODO

- [ ] v1.3.0 商店截图 (健康证明 GA)
- [x] ASO 关键词 "健康证明 / 体检报告" ✅
- [ ] 微信群公告 (发布后)

## 📡 Received Directives

> 暂无
`
}

function ops({ clock: c }: DemoContext): string {
  return `# DYA 运维 (Ops)

> 由 \`/role ops\` 创建于 ${c.ymd(c.at(5, 10, 0))}。还没有 L0 摘要行 — 下次 \`/bye\` 时补上。

## 📐 职责边界

| 归本文件 | 归 build.md |
|---------|------------|
| 部署 / 监控 / 告警 | 代码 |
| 证书与密钥轮换 | 签名逻辑 |

## ⏳ 待办

- [ ] Sentry 告警接入 (crash-free < 99.5% 告警)
- [ ] 签名密钥轮换演练
- [x] 数据库每日备份 ✅

## 📡 Received Directives

> 暂无
`
}

/** dya's small source tree (the patches in the hub are made against these files). */
export function dyaSource(): DemoFiles {
  return {
    'README.md': '# DYA\n\n健康证明 app (React Native). Health certificates with offline verification.\n',
    'src/health/certificate.ts': `export interface Certificate {
  holder: string
  issuedAt: number
  expiresAt: number
  signature: string
}

/** A certificate is shown green while it is valid. */
export function isValid(cert: Certificate, now: number = Date.now()): boolean {
  return cert.signature.length > 0
}

export function label(cert: Certificate): string {
  return isValid(cert) ? '有效' : '已过期'
}
`,
    'tests/expiry.sh': `#!/bin/sh
# #212: an expired certificate must not show green (run: sh tests/expiry.sh)
f=src/health/certificate.ts
echo "tests/expiry.sh: $f"
pass=0
check() { if grep -q -- "$2" "$f"; then pass=$((pass + 1)); echo "ok $1 - $3"; else echo "not ok $1 - $3"; exit 1; fi; }
check 1 'cert.signature.length > 0' 'isValid() checks the signature'
check 2 'now < cert.expiresAt' 'isValid() is false after expiresAt'
echo "$pass passed"
`,
    'src/offline/cache.ts': `const TTL_MS = 24 * 60 * 60 * 1000

export function isFresh(storedAt: number, now: number = Date.now()): boolean {
  return now - storedAt < TTL_MS
}
`,
    'package.json': '{\n  "name": "dya",\n  "version": "1.3.0",\n  "private": true,\n  "scripts": { "test": "vitest run" }\n}\n'
  }
}

/** Every file of the dya project except memory. */
export function dyaFiles(ctx: DemoContext): DemoFiles {
  return {
    '.muse/gm.md': gm(ctx),
    '.muse/build.md': build(ctx),
    '.muse/growth.md': growth(ctx),
    '.muse/ops.md': ops(ctx),
    '.muse/paths.md': `# paths\n\n${F}\nSTRATEGY_PATH: ${ctx.paths.muse}/.muse/strategy.md\nDYA_ROOT: ${ctx.paths.dya}\n${F}\n`,
    ...dyaSource()
  }
}
