/**
 * Generates a large synthetic fleet for benchmarks: N projects x M role files that look like
 * real ones (L0 line, Chinese/English sections, tables, directives, a few very long lines).
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const ROLES = ['strategy', 'build', 'growth', 'qa', 'gm', 'ops', 'research', 'fundraise']

/** The text of one generated role file: project number `project`, about `lines` lines. */
export function roleText(project: number, role: string, lines: number): string {
  const out = [
    `<!-- L0: v2.${project % 30}.${project % 7} | P0=${role}交付S0${project % 90} | QA PASS, ${project % 5} pending directives, Stars=${project} -->`
  ]
  out.push(
    `# ${role.toUpperCase()} 状态`,
    '',
    '> 最后更新: 2026-11-30 21:40 (CST)',
    '',
    '## 📐 职责边界',
    '',
    '| 归本文件 | 归 gm.md |',
    '|---|---|'
  )
  for (let i = out.length; i < lines; i++) {
    if (i % 97 === 0) out.push(`📡 **S0${i % 90}→PROJ${project}/BUILD**: 🟡 **竞品深度调研回传 ${i}**`, '> body line with details')
    else if (i % 50 === 0) out.push(`### ⏳ 待办 (按优先级) ${i}`)
    else if (i % 211 === 0) out.push('长行 '.repeat(2000))
    else out.push(`- [${i % 3 ? ' ' : 'x'}] Task ${i}: 修复 MCP server 的 search 边界情况 and update CHANGELOG (#${i})`)
  }
  return out.join('\n') + '\n'
}

/** Writes `projects` projects with `roles` role files of about `lines` lines each under `dir`. */
export function writeFleet(dir: string, projects: number, roles: number, lines: number): string[] {
  const roots: string[] = []
  for (let p = 0; p < projects; p++) {
    const root = join(dir, `proj${String(p).padStart(3, '0')}`)
    mkdirSync(join(root, '.muse'), { recursive: true })
    mkdirSync(join(root, 'memory'), { recursive: true })
    for (const role of ROLES.slice(0, roles)) writeFileSync(join(root, '.muse', `${role}.md`), roleText(p, role, lines))
    writeFileSync(join(root, 'memory', '2026-11-30.md'), '## [BUILD] Session 1: bench (10:00-11:00)\n')
    roots.push(root)
  }
  return roots
}
