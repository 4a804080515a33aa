/**
 * Issue 23, point 7: a directive id is bounded (`shared/directive-id.ts`). An id of `S` plus 400
 * digits in a role file made the next automatic ids reuse numbers (`S049` twice, then `S000`);
 * now it is no id: not listed, named by lint, ignored by the numbering. Run through the built
 * `muster` binary, in separate processes.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runBuiltCli } from '../../test/helpers/built-cli'
import { tmpDir, writeTree } from '../../test/helpers/tmp'

const HUGE = `S${'0'.repeat(400)}`

/** The built CLI in its own process. */
const muster = runBuiltCli

/** Project `p`: its build role's directive queue holds the lines `queue`, its QA role's file is `qa`; registered in a new home. */
function projectWithQueue(queue: string[], qa: string): { root: string; home: string } {
  const root = join(tmpDir(), 'p')
  const home = tmpDir()
  writeTree(root, {
    '.muse/build.md': ['<!-- L0: v1.0 | build | ids -->', '# Build', '', '## 📡 战略指令队列', '', ...queue, ''].join('\n'),
    '.muse/qa.md': qa
  })
  expect(muster(home, 'projects', 'add', root).code).toBe(0)
  return { root, home }
}

describe('an over-long directive id (S + 400 digits)', () => {
  it('is not listed, lint names it, and the next ids continue from the real ones', () => {
    const { root, home } = projectWithQueue(
      [
        '📡 **S048→P/QA**: 🟡 **real one**',
        '',
        `📡 **${HUGE}→P/QA**: 🟡 **huge one**`,
        `📡 **S049${'v'.repeat(12)}→P/QA**: 🟡 **long suffix**`
      ],
      '<!-- L0: v1.0 | qa | target -->\n# QA\n'
    )

    const listed = JSON.parse(muster(home, 'directives', '--json').out) as { directives: { id: string }[] }
    expect(listed.directives.map((d) => d.id)).toEqual(['S048'])

    const lint = muster(home, 'lint', '--json')
    const findings = (JSON.parse(lint.out) as { findings: { code: string; line?: number; message: string }[] }).findings
    const unmatched = findings.filter((f) => f.code === 'unmatched-directive')
    expect(unmatched.map((f) => f.line)).toEqual([8, 9])
    expect(unmatched[0]!.message).toContain(`names an over-long directive id (${HUGE.slice(0, 12)}…, over 16 characters)`)
    expect(unmatched[1]!.message).toContain(`names an over-long directive id (S049vvvvvvvv…`)

    const send = (title: string) =>
      JSON.parse(muster(home, 'directive', 'send', '--project', 'p', '--from', 'build', '--to', 'QA', '--title', title, '--json').out) as {
        id: string
      }
    expect(send('first new').id).toBe('S049')
    expect(send('second new').id).toBe('S050')
    const text = readFileSync(join(root, '.muse/build.md'), 'utf8')
    expect(text).toContain('📡 **S049→P/QA**: 🟡 **first new**')
    expect(text).toContain('📡 **S050→P/QA**: 🟡 **second new**')

    // an over-long id given by hand is refused with nothing written
    const given = muster(
      home,
      'directive',
      'send',
      '--project',
      'p',
      '--from',
      'build',
      '--to',
      'QA',
      '--title',
      'x',
      '--id',
      `S051${'x'.repeat(12)}`
    )
    expect(given.code).not.toBe(0)
    expect(given.err).toMatch(/directive id must/)
    expect(readFileSync(join(root, '.muse/build.md'), 'utf8')).toBe(text)
  }, 180_000)

  it('one S9999 line does not stop the numbering: the next ids continue the real ones, skipping taken numbers', () => {
    const { root, home } = projectWithQueue(
      ['📡 **S047→P/QA**: 🟡 **real one**', '📡 **S9999→P/QA**: 🟡 **stray far number**'],
      '<!-- L0: v1.0 | qa | target -->\n# QA\n\n## 📡 战略指令队列\n\n📡 **S048→P/BUILD**: 🟡 **taken elsewhere**\n'
    )
    const send = (title: string) => {
      const r = muster(home, 'directive', 'send', '--project', 'p', '--from', 'build', '--to', 'QA', '--title', title, '--json')
      expect(r, r.err).toMatchObject({ code: 0 })
      return (JSON.parse(r.out) as { id: string }).id
    }
    expect(send('first new')).toBe('S049')
    expect(send('second new')).toBe('S050')
    const text = readFileSync(join(root, '.muse/build.md'), 'utf8')
    expect(text).toContain('📡 **S049→P/QA**: 🟡 **first new**')
    expect(text).toContain('📡 **S9999→P/QA**: 🟡 **stray far number**')
  }, 180_000)
})
