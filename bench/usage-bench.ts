/**
 * Usage (issue 34): the first scan of 1 GB of Claude Code transcripts (generated in their real
 * shapes: user prompts, assistant turns with `usage` and tool calls, bulky tool results, a
 * subagent file now and then) and the update after one more turn of one session, through the same
 * scanner the app runs (`UsageScanner.discover` + `refresh` on a state DB). Also measured while
 * scanning: the growth of the process's memory (it must stay flat: files are read in bounded
 * chunks, not whole) and the longest event-loop stall (the app and `muster serve` keep answering).
 * The totals read back must equal the tokens written. `MUSTER_BENCH_USAGE_MB` scales the data.
 */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { openStateDb } from '../src/core/fleet'
import { UsageScanner, UsageStore } from '../src/core/usage'
import type { Figure } from './report'

const MB = 1024 * 1024
/** Sessions the data is spread over (about 5 MB each at 1 GB: a long working day's transcript). */
const SESSIONS = 200

/** A pseudo-random number generator (mulberry32), so every run writes the same bytes. */
function random(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const uuid = (r: () => number): string => 'xxxxxxxx-xxxx-4xxx-8xxx-xxxxxxxxxxxx'.replace(/x/g, () => Math.floor(r() * 16).toString(16))

/** Filler text of about `n` bytes (tool output, file contents). */
function filler(r: () => number, n: number): string {
  const words = ['const', 'return', 'await', 'function', 'import', 'usage', 'tokens', 'the', 'test', 'passed', 'src/app.ts', '{', '}', '\n']
  let s = ''
  while (s.length < n) s += words[Math.floor(r() * words.length)] + ' '
  return s
}

/** One turn of a session: the prompt or tool result, then the assistant's reply with its usage. */
function turn(r: () => number, sessionId: string, cwd: string, n: number, tokens: number[]): string {
  const at = new Date(Date.UTC(2026, 11, 7, 8, 0, n)).toISOString()
  const input = 3 + Math.floor(r() * 40)
  const output = 20 + Math.floor(r() * 900)
  const cacheWrite = Math.floor(r() * 3000)
  const cacheRead = 10_000 + Math.floor(r() * 60_000)
  tokens[0]! += input + output + cacheWrite + cacheRead
  const user =
    n % 4 === 0
      ? { type: 'user', message: { role: 'user', content: `Step ${n}: ${filler(r, 200)}` } }
      : {
          type: 'user',
          message: {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: `toolu_${n}`, content: filler(r, 2000 + Math.floor(r() * 30_000)) }]
          }
        }
  const assistant = {
    type: 'assistant',
    message: {
      id: `msg_${sessionId.slice(0, 8)}_${n}`,
      type: 'message',
      role: 'assistant',
      model: n % 7 === 0 ? 'claude-haiku-4-5' : 'claude-sonnet-4-5',
      content: [
        { type: 'text', text: filler(r, 150 + Math.floor(r() * 600)) },
        { type: 'tool_use', id: `toolu_${n + 1}`, name: 'Bash', input: { command: 'npm test', description: 'Run the tests' } }
      ],
      stop_reason: 'tool_use',
      usage: { input_tokens: input, output_tokens: output, cache_creation_input_tokens: cacheWrite, cache_read_input_tokens: cacheRead }
    },
    requestId: `req_${n}`
  }
  const common = { parentUuid: uuid(r), isSidechain: false, userType: 'external', cwd, sessionId, version: '2.1.37', gitBranch: 'main' }
  return (
    JSON.stringify({ ...common, ...user, uuid: uuid(r), timestamp: at }) +
    '\n' +
    JSON.stringify({ ...common, ...assistant, uuid: uuid(r), timestamp: at }) +
    '\n'
  )
}

/** Writes `mb` MB of transcripts under `user`'s `~/.claude/projects`; the tokens written and one session's file. */
function writeTranscripts(user: string, mb: number): { tokens: number; files: number; last: { path: string; id: string; turns: number } } {
  const r = random(34)
  const tokens = [0]
  const perSession = Math.ceil((mb * MB) / SESSIONS)
  let last = { path: '', id: '', turns: 0 }
  let files = 0
  for (let s = 0; s < SESSIONS; s++) {
    const project = `-srv-fleet-project-${s % 12}`
    const dir = join(user, '.claude', 'projects', project)
    mkdirSync(dir, { recursive: true })
    const id = uuid(r)
    const path = join(dir, `${id}.jsonl`)
    const fd = openSync(path, 'w')
    let written = 0
    let n = 0
    let chunk = ''
    while (written < perSession) {
      chunk += turn(r, id, `/srv/fleet/project-${s % 12}`, n++, tokens)
      if (chunk.length > 256 * 1024) {
        written += writeSync(fd, chunk)
        chunk = ''
      }
    }
    if (chunk) writeSync(fd, chunk)
    closeSync(fd)
    files++
    // a subagent's transcript beside every tenth session
    if (s % 10 === 0) {
      mkdirSync(join(dir, id, 'subagents'), { recursive: true })
      const sub = openSync(join(dir, id, 'subagents', 'agent-a1.jsonl'), 'w')
      for (let k = 0; k < 50; k++) writeSync(sub, turn(r, id, `/srv/fleet/project-${s % 12}`, 100_000 + k, tokens))
      closeSync(sub)
      files++
    }
    last = { path, id, turns: n }
  }
  return { tokens: tokens[0]!, files, last }
}

/** Every token the store holds. */
function storedTokens(store: UsageStore): number {
  return store.hours(null).reduce((n, h) => n + h.input + h.output + h.cache_write + h.cache_read, 0)
}

/** The usage figures: first scan of `MUSTER_BENCH_USAGE_MB` (1024) MB, one turn's update, memory, stall. */
export async function usageFigures(work: string): Promise<Figure[]> {
  const mb = Number(process.env.MUSTER_BENCH_USAGE_MB ?? 1024)
  const user = join(work, 'usage-user')
  const home = join(work, 'usage-home')
  mkdirSync(home, { recursive: true })
  const written = writeTranscripts(user, mb)
  const db = openStateDb(home)
  try {
    const store = new UsageStore(db)
    const scanner = new UsageScanner(store, { HOME: user })
    global.gc?.()
    const baseRss = process.memoryUsage().rss
    let peakRss = baseRss
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20)
    const stall = monitorEventLoopDelay({ resolution: 10 })
    stall.enable()
    const t0 = performance.now()
    const found = await scanner.discover()
    const first = await scanner.refresh()
    const scanMs = performance.now() - t0
    stall.disable()
    clearInterval(sampler)
    const afterScan = storedTokens(store)
    if (found !== written.files || afterScan !== written.tokens)
      throw new Error(`usage scan: ${found} of ${written.files} files, ${afterScan} of ${written.tokens} tokens`)

    // one more turn of one session, as the harness appends it
    const more = [0]
    const fd = openSync(written.last.path, 'a')
    writeSync(fd, turn(random(35), written.last.id, '/srv/fleet/project-0', written.last.turns, more))
    closeSync(fd)
    const runs: number[] = []
    const t1 = performance.now()
    const update = await scanner.refresh()
    runs.push(performance.now() - t1)
    if (update.read !== 1 || storedTokens(store) !== written.tokens + more[0]!)
      throw new Error(`usage update: ${update.read} sources read, ${storedTokens(store) - afterScan} of ${more[0]} tokens`)
    // and a refresh with nothing new (what the app does every second)
    const t2 = performance.now()
    await scanner.refresh()
    const idleMs = performance.now() - t2
    return [
      {
        name: `usage: first scan of ${mb >= 1024 ? `${(mb / 1024).toFixed(mb % 1024 ? 1 : 0)} GB` : `${mb} MB`} of transcripts`,
        value: scanMs,
        unit: 'ms',
        budget: 30_000 * (mb / 1024),
        note: `${written.files} files, ${(written.tokens / 1e9).toFixed(2)}e9 tokens, ${first.skipped} lines skipped; totals equal what was written`
      },
      {
        name: 'usage: memory growth while scanning',
        value: Math.max(0, (peakRss - baseRss) / MB),
        unit: 'MB',
        budget: 150,
        note: 'peak RSS over the RSS before the scan: flat, whatever the data size'
      },
      {
        name: 'usage: longest event-loop stall while scanning',
        value: stall.max / 1e6,
        unit: 'ms',
        budget: 250,
        note: 'the app and muster serve keep answering during a first scan'
      },
      {
        name: 'usage: update after one turn',
        value: runs[0]!,
        unit: 'ms',
        budget: 250,
        note: `one session of ${written.files}: its new bytes only; a refresh with nothing new: ${idleMs.toFixed(0)} ms`
      }
    ]
  } finally {
    db.close()
  }
}
