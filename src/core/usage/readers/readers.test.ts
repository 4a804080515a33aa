import { appendFileSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { addTokens, totalTokens, zeroTokens, type TokenCounts } from '../../../shared/contract/tokens'
import { readUsageFile, type FileRead } from '../line-reader'
import { usageReaderFor, type UsageReader } from '.'

const claudeCodeUsage = usageReaderFor('claude-code') as UsageReader<{ seen: [string, unknown][] }>
const codexUsage = usageReaderFor('codex')!
const geminiUsage = usageReaderFor('gemini')!

const FIXTURES = resolve(import.meta.dirname, '../../../../test/fixtures/usage')
const CLAUDE_FILE = join(FIXTURES, 'claude-projects/-tmp-cap-proj/e0a07bda-173f-4359-b3b7-bec87203a92a.jsonl')
const CODEX_FILE = join(FIXTURES, 'codex/sessions/2026/12/07/rollout-2026-12-07T03-09-02-01a24e79-eaaa-7f51-8a8d-ef2fe3c5ddae.jsonl')
const GEMINI_FILE = join(FIXTURES, 'gemini-tmp/gemini-proj/chats/session-2026-12-07T03-09-1660d774.jsonl')

/** Every bucket of a read added up, per model. */
function byModel(r: FileRead): Record<string, TokenCounts> {
  const out: Record<string, TokenCounts> = {}
  for (const b of r.buckets) addTokens((out[b.model] ??= zeroTokens()), b.tokens)
  return out
}

const dirs: string[] = []
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'muster-usage-'))
  dirs.push(d)
  return d
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

describe('the real harnesses’ records (captured against the stand-ins)', () => {
  it('Claude Code: two messages of 12 input, 40 cache write, 100 cache read; 8 and 4 output', async () => {
    const r = await readUsageFile(CLAUDE_FILE, claudeCodeUsage, null)
    expect(byModel(r)).toEqual({ 'claude-opus-5-5': { input: 24, output: 12, cache_write: 80, cache_read: 200 } })
    expect(r.facts).toEqual({ session_id: 'e0a07bda-173f-4359-b3b7-bec87203a92a', cwd: '/tmp/cap/proj' })
    expect(r.skipped).toBe(0)
    expect(r.offset).toBe(r.size)
  })

  it('Codex: the running total of two replies (10 input with 4 cached, 5 output each)', async () => {
    const r = await readUsageFile(CODEX_FILE, codexUsage, null)
    expect(byModel(r)).toEqual({ 'gpt-5.1-codex': { input: 12, output: 10, cache_write: 0, cache_read: 8 } })
    expect(totalTokens(byModel(r)['gpt-5.1-codex']!)).toBe(30)
    expect(r.facts).toEqual({ session_id: '01a24e79-eaaa-7f51-8a8d-ef2fe3c5ddae', cwd: '/tmp/cap/codex-proj' })
    expect(r.skipped).toBe(0)
  })

  it('Gemini CLI: a message written twice counts once; thoughts are output, cached tokens cache reads', async () => {
    const r = await readUsageFile(GEMINI_FILE, geminiUsage, null)
    expect(byModel(r)).toEqual({ 'gemini-2.5-flash': { input: 12, output: 14, cache_write: 0, cache_read: 8 } })
    expect(totalTokens(byModel(r)['gemini-2.5-flash']!)).toBe(34)
    expect(r.facts.session_id).toBe('1660d774-1561-473b-8f45-24271cc1b06b')
  })

  it('buckets are UTC hours of the records’ own times', async () => {
    const r = await readUsageFile(CODEX_FILE, codexUsage, null)
    expect(r.buckets.map((b) => b.hour)).toEqual(['2026-12-07T03'])
  })
})

describe('reading from the last offset', () => {
  it('reads only what was appended, with the state carried over', async () => {
    const dir = tmp()
    const file = join(dir, 'rollout.jsonl')
    const lines = readFileSync(CODEX_FILE, 'utf8').split('\n')
    const firstCount = lines.findIndex((l) => l.includes('"token_count"'))
    writeFileSync(file, lines.slice(0, firstCount + 1).join('\n') + '\n')
    const one = await readUsageFile(file, codexUsage, null)
    expect(byModel(one)['gpt-5.1-codex']).toEqual({ input: 6, output: 5, cache_write: 0, cache_read: 4 })
    appendFileSync(file, lines.slice(firstCount + 1).join('\n'))
    const two = await readUsageFile(file, codexUsage, { file_id: one.file_id, offset: one.offset, state: one.state })
    expect(two.start).toBe(one.offset)
    expect(two.restarted).toBe(false)
    // the second running total adds only what it grew by
    expect(byModel(two)['gpt-5.1-codex']).toEqual({ input: 6, output: 5, cache_write: 0, cache_read: 4 })
  })

  it('leaves a line still being written for the next read', async () => {
    const dir = tmp()
    const file = join(dir, 's.jsonl')
    const line = JSON.stringify({
      type: 'assistant',
      sessionId: 's1',
      message: { id: 'm1', model: 'claude-sonnet-5', usage: { input_tokens: 5, output_tokens: 7 } }
    })
    writeFileSync(file, line.slice(0, 40))
    const one = await readUsageFile(file, claudeCodeUsage, null)
    expect(one.offset).toBe(0)
    expect(one.buckets).toEqual([])
    appendFileSync(file, line.slice(40) + '\n')
    const two = await readUsageFile(file, claudeCodeUsage, { file_id: one.file_id, offset: one.offset, state: one.state })
    expect(byModel(two)['claude-sonnet-5']).toEqual({ input: 5, output: 7, cache_write: 0, cache_read: 0 })
    expect(two.skipped).toBe(0)
  })

  it('starts over, with a fresh state, on a file replaced or cut shorter', async () => {
    const dir = tmp()
    const file = join(dir, 's.jsonl')
    writeFileSync(file, readFileSync(CLAUDE_FILE))
    const one = await readUsageFile(file, claudeCodeUsage, null)
    writeFileSync(join(dir, 'new'), readFileSync(CLAUDE_FILE))
    renameSync(join(dir, 'new'), file)
    const two = await readUsageFile(file, claudeCodeUsage, { file_id: one.file_id, offset: one.offset, state: one.state })
    expect(two.restarted).toBe(true)
    expect(byModel(two)).toEqual(byModel(one))
  })
})

describe('bad lines are skipped and counted, never fatal', () => {
  const good = (id: string, out: number): string =>
    JSON.stringify({ type: 'assistant', sessionId: 's', message: { id, model: 'm', usage: { input_tokens: 1, output_tokens: out } } })

  it('a truncated line, a non-object, hostile bytes and a line too long', async () => {
    const dir = tmp()
    const file = join(dir, 's.jsonl')
    const huge = `{"type":"assistant","message":{"usage":{"input_tokens":9},"x":"${'a'.repeat(5000)}"}}`
    writeFileSync(
      file,
      [
        good('a', 1),
        good('b', 2).slice(0, 50), // cut off mid-record, then the next line
        '["usage"]',
        '\u0000\u001b[31m"usage" \ud800',
        huge,
        good('c', 3),
        ''
      ].join('\n')
    )
    const r = await readUsageFile(file, claudeCodeUsage, null, { maxLine: 4096, chunk: 1024 })
    expect(r.skipped).toBe(4)
    expect(byModel(r).m).toEqual({ input: 2, output: 4, cache_write: 0, cache_read: 0 })
    expect(r.offset).toBe(r.size)
  })

  it('a line too long split over many reads is dropped to its newline, across reads of a growing file', async () => {
    const dir = tmp()
    const file = join(dir, 's.jsonl')
    writeFileSync(file, good('a', 1) + '\n' + '"usage"'.repeat(1000))
    const one = await readUsageFile(file, claudeCodeUsage, null, { maxLine: 2048, chunk: 512 })
    expect(one.skipped).toBe(1)
    expect(one.dropping).toBe(true)
    appendFileSync(file, '"usage"'.repeat(100) + '\n' + good('b', 5) + '\n')
    const two = await readUsageFile(
      file,
      claudeCodeUsage,
      { file_id: one.file_id, offset: one.offset, state: one.state, dropping: one.dropping },
      { maxLine: 2048, chunk: 512 }
    )
    expect(two.skipped).toBe(0)
    expect(byModel(two).m).toEqual({ input: 1, output: 5, cache_write: 0, cache_read: 0 })
  })

  it('CRLF line ends read as LF', async () => {
    const dir = tmp()
    const file = join(dir, 's.jsonl')
    writeFileSync(file, good('a', 1) + '\r\n' + good('b', 1) + '\r\n')
    const r = await readUsageFile(file, claudeCodeUsage, null)
    expect(r.skipped).toBe(0)
    expect(byModel(r).m!.output).toBe(2)
  })
})

describe('messages written more than once', () => {
  it('Claude Code: content blocks of one message count once, growing counts add the difference', async () => {
    const state = claudeCodeUsage.start()
    const rec = (out: number) => ({
      type: 'assistant',
      message: { id: 'msg_1', model: 'm', usage: { input_tokens: 3, output_tokens: out } }
    })
    const sum = zeroTokens()
    for (const r of [rec(1), rec(1), rec(9)]) for (const u of claudeCodeUsage.read(r, state).usage) addTokens(sum, u.tokens)
    expect(sum).toEqual({ input: 3, output: 9, cache_write: 0, cache_read: 0 })
  })

  it('Claude Code: its own <synthetic> messages count nothing', () => {
    const got = claudeCodeUsage.read(
      { type: 'assistant', message: { id: 'x', model: '<synthetic>', usage: { input_tokens: 0, output_tokens: 0 } } },
      claudeCodeUsage.start()
    )
    expect(got.usage).toEqual([])
  })

  it('Codex: a running total that falls starts a new count', () => {
    const state = codexUsage.start()
    const tc = (input: number, output: number) => ({
      type: 'event_msg',
      payload: { type: 'token_count', info: { total_token_usage: { input_tokens: input, output_tokens: output } } }
    })
    const seen = [tc(10, 5), tc(10, 5), tc(30, 9), tc(4, 1)].map((r) => codexUsage.read(r, state).usage[0]!.tokens)
    expect(seen.map(totalTokens)).toEqual([15, 0, 24, 5])
  })
})

describe('which files are the harnesses’ records', () => {
  const reader = (r: UsageReader, rel: string) => r.recordFile(rel)

  it('Claude Code: session transcripts and subagents, nothing else', () => {
    expect(reader(claudeCodeUsage, '-tmp-p/e0a07bda-173f.jsonl')).toEqual({ session_id: 'e0a07bda-173f' })
    expect(reader(claudeCodeUsage, '-tmp-p/abc/subagents/agent-1.jsonl')).toEqual({ session_id: 'abc' })
    expect(reader(claudeCodeUsage, '-tmp-p/memory/notes.md')).toBeNull()
    expect(reader(claudeCodeUsage, 'x.jsonl')).toBeNull()
    expect(reader(claudeCodeUsage, '-tmp-p/../../etc/x.jsonl')).toBeNull()
  })

  it('Codex: rollouts by date and archived ones', () => {
    const id = '01a24e79-eaaa-7f51-8a8d-ef2fe3c5ddae'
    expect(reader(codexUsage, `sessions/2026/12/07/rollout-2026-12-07T03-09-02-${id}.jsonl`)).toEqual({ session_id: id })
    expect(reader(codexUsage, `archived_sessions/rollout-2026-12-07T03-09-02-${id}.jsonl`)).toEqual({ session_id: id })
    expect(reader(codexUsage, 'config.toml')).toBeNull()
    expect(reader(codexUsage, `sessions/rollout-${id}.jsonl`)).toBeNull()
  })

  it('Gemini CLI: chats (id read from the file) and subagents’ chats (their session’s)', () => {
    expect(reader(geminiUsage, 'proj/chats/session-2026-12-07T03-09-1660d774.jsonl')).toEqual({ session_id: null })
    expect(reader(geminiUsage, 'proj/chats/1660d774-aaaa/agent-1.jsonl')).toEqual({ session_id: '1660d774-aaaa' })
    expect(reader(geminiUsage, 'proj/logs.json')).toBeNull()
  })

  it('roots follow HOME and the harnesses’ own variables', () => {
    expect(claudeCodeUsage.roots({ HOME: '/h' })).toEqual(['/h/.claude/projects'])
    expect(claudeCodeUsage.roots({ HOME: '/h', CLAUDE_CONFIG_DIR: '/c' })).toEqual(['/c/projects'])
    expect(codexUsage.roots({ HOME: '/h', CODEX_HOME: '/x' })).toEqual(['/x'])
    expect(geminiUsage.roots({ HOME: '/h' })).toEqual(['/h/.gemini/tmp'])
    expect(geminiUsage.roots({ HOME: '/h', GEMINI_CLI_HOME: '/g' })).toEqual(['/g/.gemini/tmp'])
    expect(claudeCodeUsage.roots({})).toEqual([])
  })
})
