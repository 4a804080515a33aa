/** The big role file the parser's size test and `npm run bench` both read (spec: role files up to 250 KB, 10 KB lines). */

/** A 250 KB role file with 10 KB lines in every form the parser reads: an L0 line, received headers, directives, tables, headings, tasks. */
export function bigRoleText(): string {
  const long = 'x'.repeat(10_000)
  const blocks: string[] = ['<!-- L0: v1 | ' + 'y, '.repeat(3000) + ' -->', '## 📡 已接收战略指令']
  for (let i = 0; i < 6; i++)
    blocks.push(
      `### S0${10 + i}→MUSE/BUILD (3/1) — ✅ 已接收 ${long}`,
      `> ${long}`,
      `📡 **S1${10 + i}→QA**: 🟡 **${long}**${'*'.repeat(2000)}`,
      `| ${'🟡 |'.repeat(2000)}`,
      `## ${'#'.repeat(50)} ${long} ##`,
      `- [ ] ${long}`
    )
  return blocks.join('\n') + '\n'
}
