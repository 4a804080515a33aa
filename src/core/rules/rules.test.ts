import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../../test/helpers/fixtures'
import { tmpDir } from '../../../test/helpers/tmp'
import { installRules, installTarget, MARKER_END, placeBlock, renderRules } from './rules'

const fixture = (name: string) => join(REPO_ROOT, 'test/fixtures/rules', name)
const read = (p: string) => readFileSync(p, 'utf8')
const copy = (name: string) => {
  const to = join(tmpDir(), name)
  copyFileSync(fixture(name), to)
  return to
}

describe('muster rules: the block', () => {
  it('is wrapped in the markers and names the agent everywhere, with every duty', async () => {
    const block = await renderRules('mac-claude')
    const lines = block.split('\n')
    expect(lines[0]).toBe(
      '<!-- mempalace-shared-brain:start (rendered by Muster for mac-claude; replace it with `muster rules install --agent mac-claude`, do not edit by hand) -->'
    )
    expect(lines[1]).toBe('')
    expect(lines.at(-2)).toBe('')
    expect(lines.at(-1)).toBe(MARKER_END)
    expect(block).not.toContain('<AGENT_ID>')
    expect(block).toContain('Your identity is **mac-claude**')
    for (const duty of [
      'search memory first',
      'since_event_id=<the last event id you',
      'background watcher',
      'the goal, the branch, the base commit',
      'definition of done',
      'recompute its sha256',
      'No task you touched stays open'
    ]) {
      expect(block).toContain(duty)
    }
  })

  it("refuses identities that are not one token, with upstream's message", async () => {
    for (const bad of ['', '   ', 'two words', 'tab\tid', 'x-->', 'a{b}', 'host:agent']) {
      await expect(renderRules(bad), JSON.stringify(bad)).rejects.toThrow(
        /^--agent must be a single token like mac-claude \(machine-harness\)$/
      )
    }
    expect(await renderRules('win.codex_2-b')).toContain('win.codex_2-b')
  })
})

describe('muster rules install', () => {
  it('replaces an existing block in place, the rest byte for byte (golden file), then idempotently', async () => {
    const file = copy('with-old-block.md')
    expect(await installRules('mac-claude', file)).toEqual({ file, outcome: 'replaced' })
    expect(read(file)).toBe(read(fixture('expected-with-old-block.md')))
    const before = read(fixture('with-old-block.md'))
    const block = await renderRules('mac-claude')
    const start = before.indexOf('<!-- mempalace-shared-brain:start')
    const end = before.indexOf(MARKER_END) + MARKER_END.length
    expect(read(file)).toBe(before.slice(0, start) + block + before.slice(end))
    expect(await installRules('mac-claude', file)).toEqual({ file, outcome: 'unchanged' })
    expect(read(file)).toBe(read(fixture('expected-with-old-block.md')))
  })

  it('appends after a blank line to a file without a block, or without a final newline', async () => {
    const block = await renderRules('mac-codex')
    const file = copy('without-block.md')
    expect((await installRules('mac-codex', file)).outcome).toBe('appended')
    expect(read(file)).toBe(read(fixture('expected-without-block.md')))
    expect(read(file)).toBe(`${read(fixture('without-block.md'))}\n${block}\n`)
    expect((await installRules('mac-codex', file)).outcome).toBe('unchanged')
    const bare = copy('no-final-newline.md')
    await installRules('mac-codex', bare)
    expect(read(bare)).toBe(`No trailing newline here\n\n${block}\n`)
  })

  it('creates a missing file and its folders; a CRLF file stays CRLF', async () => {
    const home = tmpDir()
    const file = installTarget({ harness: 'opencode', home })
    expect(file).toBe(join(home, '.config/opencode/AGENTS.md'))
    expect(await installRules('home-opencode', file)).toEqual({ file, outcome: 'created' })
    expect(read(file)).toBe(`${await renderRules('home-opencode')}\n`)
    const crlf = join(tmpDir(), 'CLAUDE.md')
    writeFileSync(crlf, read(fixture('with-old-block.md')).replace(/\n/g, '\r\n'))
    await installRules('mac-claude', crlf)
    expect(read(crlf)).toBe(read(fixture('expected-with-old-block.md')).replace(/\n/g, '\r\n'))
  })

  it('harness files, and refusals that write nothing', async () => {
    expect(installTarget({ harness: 'claude', home: '/h' })).toBe('/h/.claude/CLAUDE.md')
    expect(installTarget({ harness: 'codex', home: '/h' })).toBe('/h/.codex/AGENTS.md')
    expect(installTarget({ harness: 'gemini', home: '/h' })).toBe('/h/.gemini/config/GEMINI.md')
    expect(installTarget({ file: 'x/SOUL.md', cwd: '/w' })).toBe('/w/x/SOUL.md')
    expect(() => installTarget({ harness: 'vim', home: '/h' })).toThrow(
      "unknown harness 'vim': use claude, codex, opencode, gemini (or --file PATH)"
    )
    expect(() => installTarget({})).toThrow(/^say where to install/)
    const broken = join(tmpDir(), 'AGENTS.md')
    const text = '# x\n<!-- mempalace-shared-brain:start -->\nhalf a block\n'
    writeFileSync(broken, text)
    await expect(installRules('a', broken)).rejects.toThrow(
      /has a shared-brain start marker \(line 2\) without its end marker: fix it by hand, nothing was written/
    )
    expect(read(broken)).toBe(text)
    expect(() => placeBlock(`${text}${MARKER_END}\n<!-- mempalace-shared-brain:start x -->\n${MARKER_END}\n`, 'b')).toThrow(
      /holds 2 shared-brain blocks/
    )
    await expect(installRules('bad id', join(tmpDir(), 'n.md'))).rejects.toThrow(/single token/)
    expect(existsSync(join(tmpDir(), 'n.md'))).toBe(false)
  })
})
