/**
 * The reported reproductions, end to end through the CLI: an agent truncating a role file and
 * writing it back 2 s later while `muster directive send` runs; a directive sent while an agent
 * appends line by line.
 */
import { spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tmpDir, writeTree } from '../../test/helpers/tmp'
import { runCliIn as run } from '../../test/helpers/cli'

/** A 522-line role file with an outgoing section, in a registered project `p`. */
async function project(): Promise<{ home: string; file: string; original: string }> {
  const root = tmpDir()
  const home = tmpDir()
  const log = Array.from({ length: 516 }, (_, i) => `- log line ${i}`).join('\n')
  const original = `<!-- L0: v1.0 | build | ok -->\n# Build\n\n## 📡 战略指令队列\n\n## Log\n${log}\n`
  writeTree(root, { 'p/.muse/build.md': original, 'p/.muse/qa.md': '<!-- L0: v1.0 | qa | ok -->\n' })
  expect((await run(home, 'projects', 'add', join(root, 'p'))).code).toBe(0)
  return { home, file: join(root, 'p/.muse/build.md'), original }
}

function python(code: string, file: string): Promise<number | null> {
  const proc = spawn('python3', ['-c', code, file], { stdio: 'ignore' })
  return new Promise((resolve) => proc.once('exit', resolve))
}

describe('muster directive send beside a writing agent', () => {
  it(
    'an agent holding the file truncated for 2 s: the send waits for its write and the file stays whole',
    { timeout: 240_000 },
    async () => {
      const { home, file, original } = await project()
      expect(original.split('\n').length - 1).toBe(522)
      const agent = python("import sys,time;F=sys.argv[1];d=open(F,'rb').read();f=open(F,'wb');time.sleep(2);f.write(d)", file)
      // as in the report: the send starts while the agent holds the file truncated
      for (let t = 0; readFileSync(file, 'utf8') !== '' && t < 500; t++) await new Promise((r) => setTimeout(r, 10))
      expect(readFileSync(file, 'utf8')).toBe('')
      const r = await run(home, 'directive', 'send', '--project', 'p', '--from', 'build', '--to', 'QA', '--title', 'Whole file')
      expect(await agent).toBe(0)
      expect(r).toMatchObject({ code: 0, err: '' })
      const text = readFileSync(file, 'utf8')
      expect(text).toBe(original.replace('## 📡 战略指令队列\n', '## 📡 战略指令队列\n\n📡 **S001→P/QA**: 🟡 **Whole file**\n'))
      expect(text.split('\n').length - 1).toBe(524)
    }
  )

  it(
    'the fleet read the file empty, so it offers S001, which the file already holds: the send takes S002 and says so',
    { timeout: 240_000 },
    async () => {
      const { home, file, original } = await project()
      const first = original.replace('## 📡 战略指令队列\n', '## 📡 战略指令队列\n\n📡 **S001→P/QA**: 🟡 **First**\n')
      writeFileSync(file, first)
      const agent = python("import sys,time;F=sys.argv[1];d=open(F,'rb').read();f=open(F,'wb');time.sleep(2);f.write(d)", file)
      for (let t = 0; readFileSync(file, 'utf8') !== '' && t < 500; t++) await new Promise((r) => setTimeout(r, 10))
      expect(readFileSync(file, 'utf8')).toBe('')
      const r = await run(home, 'directive', 'send', '--project', 'p', '--from', 'build', '--to', 'QA', '--title', 'Second')
      expect(await agent).toBe(0)
      expect(r).toMatchObject({ code: 0, err: '', out: 'sent S002→P/QA: p/.muse/build.md:8\n' })
      expect(readFileSync(file, 'utf8')).toBe(first.replace('**First**\n', '**First**\n\n📡 **S002→P/QA**: 🟡 **Second**\n'))
    }
  )

  it('an explicit id that the settled file holds for another directive is refused, nothing written', { timeout: 240_000 }, async () => {
    const { home, file, original } = await project()
    const first = original.replace('## 📡 战略指令队列\n', '## 📡 战略指令队列\n\n📡 **S001→P/QA**: 🟡 **First**\n')
    writeFileSync(file, first)
    const agent = python("import sys,time;F=sys.argv[1];d=open(F,'rb').read();f=open(F,'wb');time.sleep(2);f.write(d)", file)
    for (let t = 0; readFileSync(file, 'utf8') !== '' && t < 500; t++) await new Promise((r) => setTimeout(r, 10))
    const r = await run(home, 'directive', 'send', '--project', 'p', '--from', 'build', '--to', 'QA', '--title', 'Second', '--id', 'S001')
    expect(await agent).toBe(0)
    expect(r.code).not.toBe(0)
    expect(r.err).toContain('S001→P/QA already exists: pick another id')
    expect(readFileSync(file, 'utf8')).toBe(first)
  })

  it('an agent appending line by line while directives are sent: every line and every directive once', { timeout: 240_000 }, async () => {
    const { home, file } = await project()
    const agent = python(
      "import sys,time\nfor i in range(300):\n  f=open(sys.argv[1],'a');f.write('agent line %03d\\n'%i);f.close();time.sleep(0.002)",
      file
    )
    for (let i = 1; i <= 12; i++)
      expect((await run(home, 'directive', 'send', '--project', 'p', '--from', 'build', '--to', 'QA', '--title', `D${i}`)).code).toBe(0)
    expect(await agent).toBe(0)
    const text = readFileSync(file, 'utf8')
    for (let i = 0; i < 300; i++) expect(text.split(`agent line ${String(i).padStart(3, '0')}\n`).length - 1).toBe(1)
    for (let i = 1; i <= 12; i++) expect(text.split(`🟡 **D${i}**\n`).length - 1).toBe(1)
  })
})
