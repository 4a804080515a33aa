/**
 * The fast path of the fleet scan (`digestRole`, from bytes) must equal the reference parser
 * (`parseRole` on the decoded text) on everything the fleet views read: on the own corpus, the
 * upstream files, a generated bench-like fleet, and fuzzed files built from every construct the
 * byte-level shortcuts reason about (non-ASCII blanks, CR, U+2028, BOM, invalid UTF-8, fences...).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CORPUS, describeUpstream, upstreamPath } from '../../../test/helpers/fixtures'
import { seededRandom } from '../seeded-random'
import { digestOf, parseRole } from './parse-role'
import { digestRole } from './role-digest'

/** Asserts the fast digest equals the reference's for `bytes`. */
function same(file: string, bytes: Buffer, label = file): void {
  expect(digestRole(file, bytes), label).toEqual(digestOf(parseRole(file, bytes.toString('utf8'))))
}

/** Every `.md` file under `dir`. */
function mdFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n)
    return statSync(p).isDirectory() ? mdFiles(p) : n.endsWith('.md') ? [p] : []
  })
}

const name = (p: string) => p.slice(p.lastIndexOf('/') + 1)

/** Lines covering every branch of the line machine and every byte-level shortcut of the digest. */
const FRAGMENTS = [
  '',
  '',
  '',
  ' ',
  '\t',
  '\u3000',
  '\u00a0',
  '<!-- L0: v1.2.3 | P0 | a, b -->',
  '<!-- L0: no version -->',
  '# 标题',
  '## 📡 已接收指令',
  '## 📡 Received Directives',
  '### ⏳ 待办 (按优先级)',
  '## TODO',
  '### 分组 A',
  '#### sub',
  '##',
  '#tag',
  '####### deep',
  '   # three spaces',
  '    # four spaces',
  ' \t# tab',
  '\u3000# ideographic',
  '## 📡 指令队列',
  '## 📡 QA→BUILD 通知',
  '## 技术栈',
  '## 职责边界',
  '### S029→MUSE/BUILD (3/13) — ✅ 已接收 3/14 16:00',
  '### S030→BUILD (3/14) 🟡 待处理',
  '#### 📡 S031→MUSE/QA (3/15)',
  '### S032→MUSE/BUILD (3/16) — ✅️ 已接收',
  '### 📡 QA→BUILD 通知 (2026-03-15 23:46)',
  '### 📡 GROWTH→BUILD (2026-03-28 11:20) — ✅ 已完成',
  '### 📡 QA→BUILD 通知 (2026-03-15 23:46) 🟡 待 BUILD 处理',
  '📡 **S041→MUSE/BUILD**: 🟡 **修复 MCP**',
  '📡 **S042→ALL**: ✅️ **done** rest',
  '📡 S025→DYA/GM: V1.2.0 加入健康证明功能',
  '📡 S026→GM: 🟡 loose pending',
  '📡 not a directive',
  '📡',
  '> body line',
  '>',
  '> **🔴 label**',
  '>no space',
  ' > indented quote',
  '- [ ] open item',
  '- [x] done item',
  '* [X] star done',
  '+ [/] slash',
  '-  [ ]  two spaces',
  '- [ ]',
  '- [ ]x',
  '-[ ] no space',
  '- [] empty box',
  '- [y] bad box',
  '  - [ ] nested',
  '\t- [x] tab nested',
  '\u00a0- [ ] nbsp lead',
  '\u3000- [x] ideographic lead',
  '-\u00a0[ ] nbsp after marker',
  '- \u3000[x] ideographic after marker',
  '- [ ]\rinterior CR',
  '- [ ] a\rb',
  '- [x] a\u2028b',
  '- [ ] a\u2029b',
  '- [x]\u2028',
  '- [ ] 修复 MCP server 的 search 边界情况 (#12)',
  '1. [ ] numbered',
  '- [ ] [link](x) [y]',
  '---',
  '***',
  '___',
  ' ---',
  '   ***',
  '- - -',
  '-- -',
  '----------',
  '---\u3000',
  '\u00a0---',
  '\u3000***',
  '--',
  '__\u00a0_',
  '-\u2028--',
  '---x',
  '* * *',
  '```',
  '```js',
  '~~~',
  '~~~~',
  '   ```',
  '    ```',
  '`` not a fence',
  '```\u3000',
  '~~~ info',
  '``` trailing ```',
  '*MUSE QA v1.0 — 2026*',
  '_footer_',
  '最后更新: 2026-11-30',
  '> last updated: today',
  'Updated： x',
  '**bold**',
  '长行 '.repeat(300),
  'plain prose with [brackets] inside',
  '中文段落，没有特殊字符。',
  '| a | b |',
  '|---|---|',
  '✅ BUILD 无需操作',
  '🟡 待 BUILD 处理',
  'ＶＳ16️ text',
  // table rows, announcements and unmatched S-id/📡 lines (docs/muse-directive-forms.md)
  '## 📡 已接收战略指令',
  '## 📡 战略指令队列',
  '| **S177 title (P0)** | 🟡 **待执行** — … |',
  '| S090 t | ✅ 已接收 — 待执行 |',
  '| **S088** | t | ✅ x |',
  '    | S091 indented | 🟡 |',
  '\t| S092 tab | ✅ |',
  ' | S093 space row | ✅ |',
  '| 11/05 | S081 second | 🟡 |',
  '| S200→RELAY/BUILD t | 🟡 |',
  '| S201→产品 x | 🟡 |',
  '| 🟡 S202 lead | x |',
  'prose naming S081 and S1234',
  'text with 📡 inside',
  'S12 short',
  '\u3000S094 after a wide space',
  '## 📡 S109 — title (Strategy 4/5 23:35 · P0)',
  '## 📡 S112 — t — ✅ 已完成',
  '### 📡 **S113** t',
  '**状态**: 🟡 待执行',
  'Status: ✅ done'
]

/** Byte sequences that are not valid UTF-8 (lone continuation, truncated lead, overlong, 0xFF). */
const BAD_BYTES = [
  Buffer.from([0xa0]),
  Buffer.from([0xe4, 0xbd]),
  Buffer.from([0xc0, 0xaf]),
  Buffer.from([0xff]),
  Buffer.from([0xf0, 0x9f, 0x93]),
  Buffer.from([0xe2, 0x80])
]

/** A random role file of `n` lines drawn from FRAGMENTS, with random endings, BOM and bad bytes. */
function randomFile(rnd: () => number, n: number): Buffer {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!
  const parts: Buffer[] = []
  if (rnd() < 0.2) parts.push(Buffer.from([0xef, 0xbb, 0xbf]))
  for (let i = 0; i < n; i++) {
    let line = pick(FRAGMENTS)
    if (rnd() < 0.1) line = line.replace('✅', '✅\ufe0f').replace('🟡', '🟡\ufe0f')
    parts.push(Buffer.from(line))
    if (rnd() < 0.05) parts.push(pick(BAD_BYTES))
    if (i < n - 1 || rnd() < 0.7) parts.push(Buffer.from(rnd() < 0.2 ? '\r\n' : rnd() < 0.03 ? '\r' : '\n'))
  }
  return Buffer.concat(parts)
}

describe('digestRole equals the reference parser', () => {
  it('on the own corpus', () => {
    const files = mdFiles(CORPUS)
    expect(files.length).toBeGreaterThan(5)
    for (const p of files) same(name(p), readFileSync(p), p)
  })

  it('on a generated bench-like fleet file, with CRLF and a BOM', async () => {
    const { roleText } = await import('../../../bench/fleet-data')
    for (const [i, role] of ['build', 'qa', 'strategy'].entries()) {
      const text = roleText(i * 37, role, 400)
      same(`${role}.md`, Buffer.from(text))
      same(`${role}.md`, Buffer.from('\ufeff' + text.replaceAll('\n', '\r\n')))
    }
  })

  it('on empty and tiny inputs', () => {
    for (const t of ['', '\n', '\r\n', '\ufeff', '\ufeff\n', 'x', '#', '- [ ]', '```', '---\n*footer*', '\r', '\n\n\n'])
      same('a.md', Buffer.from(t), JSON.stringify(t))
  })

  it('on 3,000 fuzzed files (seeded)', () => {
    const rnd = seededRandom(7)
    for (let i = 0; i < 3000; i++) {
      const bytes = randomFile(rnd, 1 + Math.floor(rnd() * 60))
      same(i % 2 ? 'Build.md' : 'qa.md', bytes, `fuzz #${i}: ${JSON.stringify(bytes.toString('latin1'))}`)
    }
  })

  it('on corpus files with random byte edits (seeded)', () => {
    const rnd = seededRandom(11)
    const files = mdFiles(CORPUS).map((p) => readFileSync(p))
    for (let i = 0; i < 400; i++) {
      const base = files[i % files.length]!
      const at = Math.floor(rnd() * base.length)
      const insert =
        rnd() < 0.5
          ? BAD_BYTES[Math.floor(rnd() * BAD_BYTES.length)]!
          : Buffer.from(FRAGMENTS[Math.floor(rnd() * FRAGMENTS.length)]! + '\n')
      const cut = Math.floor(rnd() * 40)
      same('build.md', Buffer.concat([base.subarray(0, at), insert, base.subarray(Math.min(base.length, at + cut))]), `edit #${i}`)
    }
  })
})

describeUpstream('digestRole equals the reference parser on the upstream files', () => {
  it('every .md file under shared/fixtures', () => {
    const files = mdFiles(upstreamPath())
    expect(files.length).toBeGreaterThan(0)
    for (const p of files) same(name(p), readFileSync(p), p)
  })
})
