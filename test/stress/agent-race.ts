/**
 * The agent-write race used by the stress test and the bench: per agent write pattern, a separate
 * Python process writes unique lines to a role file while Muster sends directives into the same
 * file through the real core code (`send` -> `safeEdit`). Afterwards every agent line and every
 * edit is counted in the file: each must be there exactly once.
 */
import { spawn } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { RoleCache, scanProjects, type FleetView } from '../../src/core/muse/fleet-scan'
import { detectHub } from '../../src/core/muse/hub-project'
import { lateWritesSettled } from '../../src/core/muse/safe-write-keeper'
import { replacedWrites } from '../../src/core/muse/safe-write-witness'
import { send } from '../../src/core/muse/send'
import type { Project } from '../../src/shared/api'
import { seededRandom } from '../../src/core/seeded-random'

/** How agents write (see agent_writer.py). */
export type AgentPattern = 'append' | 'truncate' | 'rename'

/** Sizes of one race. */
export interface RaceOptions {
  /** Folder to create the projects in. */
  dir: string
  patterns: AgentPattern[]
  agentWrites: number
  musterEdits: number
  /** Muster edits in flight per file (the server serves requests concurrently). */
  concurrency: number
  /** Agent pause between writes: random 0..this many ms. */
  agentPauseMs: number
  /** Kill an agent that has not finished after this long. */
  agentTimeoutMs: number
  /** Every this many writes the agent stalls `stallMs` between opening the file and writing (0: never). */
  stallEvery?: number
  stallMs?: number
  /** Each stall lasts a random stallMs..stallMaxMs (default stallMs). */
  stallMaxMs?: number
  /** `mid`: stall halfway through the write (a half-written file), not between open and write. */
  stallWhere?: 'open' | 'mid'
  /** Run a reader process beside each race that counts reads finding the path missing. */
  reader?: boolean
  /**
   * Stop the agent with SIGSTOP now and then (a random gap of 0..gapMs between stops) for a random
   * minMs..maxMs each time, then SIGCONT: a writer frozen between its read and its rename.
   */
  sigstop?: { minMs: number; maxMs: number; gapMs: number }
  /**
   * Let the agent write all its lines at its own pace from the start (sends still start as it
   * passes their share): no lockstep, so its renames carry reads older than several sends.
   */
  free?: boolean
  /** Path of agent_writer.py (default: beside this file; a bundled bench passes it). */
  agentScript?: string
}

/** What one pattern's race left in the file. */
export interface RaceResult {
  pattern: AgentPattern
  /** Agent lines missing from the file. */
  lostLines: number
  /** Agent lines present more than once (extra copies). */
  duplicatedLines: number
  /** Muster edits missing from the file. */
  lostEdits: number
  /** Muster edits present more than once (extra copies). */
  duplicatedEdits: number
  /** Muster edits that failed with an error (each must then be absent). */
  failedEdits: string[]
  /** Latency of each successful edit, ms. */
  latencies: number[]
  /** Muster working files left beside the role file. */
  leftovers: string[]
  /** The first few lost or duplicated lines and edits, by name (what to look for when a race fails). */
  examples: string[]
  /** Lines of the final file that belong to nothing written whole (split or merged lines), and extra section headers. */
  torn: string[]
  /** Successful edits missing from the file but kept in a `.muster-lost-` copy (reported). */
  reportedEdits: number
  /**
   * Other writers' versions reported replaced in a swap's window (the documented limit of
   * `safe-write.ts`: a rename landing between Muster's final check and its rename).
   */
  replacedWrites: number
  /** The reader's reads and how many found the path missing (null without a reader). */
  reads: { total: number; missing: number } | null
  seconds: number
}

/** A race's counts when nothing was lost, doubled, kept aside, left over or torn (what the stress suites expect). */
export const NOTHING_LOST = {
  lostLines: 0,
  duplicatedLines: 0,
  lostEdits: 0,
  reportedEdits: 0,
  duplicatedEdits: 0,
  leftovers: [] as string[],
  examples: [] as string[],
  torn: [] as string[]
}

const AGENT = join(import.meta.dirname, 'agent_writer.py')
const READER = join(import.meta.dirname, 'reader_loop.py')

const role = (tag: string) => `<!-- L0: v1.0 | stress ${tag} | sends vs agent writes -->
# Build (${tag})

## 📡 战略指令队列

📡 **S000→QA**: 🟡 **first**

## Log

`

/** Runs one race per pattern, all at once, each on its own project; resolves when all are counted. */
export async function runAgentRace(opts: RaceOptions): Promise<RaceResult[]> {
  return Promise.all(
    opts.patterns.map(async (pattern, i) => {
      const root = join(opts.dir, `p-${pattern}`)
      mkdirSync(join(root, '.muse'), { recursive: true })
      writeFileSync(join(root, '.muse', 'build.md'), role(pattern))
      writeFileSync(join(root, '.muse', 'qa.md'), `<!-- L0: v1.0 | qa | target -->\n# QA\n`)
      const project: Project = { name: `p-${pattern}`, path: root, key: `P-${pattern.toUpperCase()}`, addedAt: new Date().toISOString() }
      // the fleet only resolves the target and checks ids: scanned once, as a handler would per call
      const fleet: FleetView = { projects: await scanProjects([project], new RoleCache()), hub: await detectHub([project], null) }
      return racePattern(fleet, project, pattern, i + 1, opts)
    })
  )
}

async function racePattern(
  fleet: FleetView,
  project: Project,
  pattern: AgentPattern,
  seed: number,
  opts: RaceOptions
): Promise<RaceResult> {
  const root = project.path
  const file = join(root, '.muse', 'build.md')
  const t0 = performance.now()
  const stop = join(root, 'reader.stop')
  const reader = opts.reader ? startReader(file, stop) : null
  const agent = new Agent(pattern, file, opts, seed)
  const perEdit = opts.agentWrites / opts.musterEdits
  const latencies: number[] = []
  const failedEdits: string[] = []
  let next = 0
  if (opts.free) agent.allow(opts.agentWrites)
  const worker = async () => {
    for (let i = next++; i < opts.musterEdits; i = next++) {
      // lockstep: edit i starts once the agent has written its share, and lets it write further
      agent.allow(Math.ceil((i + opts.concurrency + 1) * perEdit) + 40)
      await agent.reached(Math.floor(i * perEdit))
      const title = `edit-${pattern}-${String(i).padStart(4, '0')}`
      const t = performance.now()
      try {
        await send(fleet, {
          project,
          from: 'build',
          to: `${project.key}/QA`,
          id: `S${String(i + 1).padStart(3, '0')}`,
          title,
          body: `body of ${title}`
        })
        latencies.push(performance.now() - t)
      } catch (err) {
        failedEdits.push(`${title}: ${(err as Error).message}`)
      }
    }
  }
  await Promise.all([...Array.from({ length: opts.concurrency }, worker)])
  agent.allow(opts.agentWrites)
  await agent.done
  // copies of the file kept for late appends are merged and gone before anything is counted
  await lateWritesSettled()
  writeFileSync(stop, '')
  const reads = reader ? await reader : null
  const seconds = (performance.now() - t0) / 1000
  const text = readFileSync(file, 'utf8')
  const lines = text.split('\n')
  const tally = (re: RegExp) => {
    const seen = new Map<string, number>()
    for (const l of lines) {
      const m = re.exec(l)
      if (m) seen.set(m[1]!, (seen.get(m[1]!) ?? 0) + 1)
    }
    return seen
  }
  const agentSeen = tally(new RegExp(`^(agent-${pattern}-\\d{4})$`))
  const editSeen = tally(new RegExp(`^📡 \\*\\*S\\d{3}→P-${pattern.toUpperCase()}/QA\\*\\*: 🟡 \\*\\*(edit-${pattern}-\\d{4})\\*\\*$`))
  const failed = new Set(failedEdits.map((f) => f.slice(0, f.indexOf(':'))))
  let lostLines = 0
  let duplicatedLines = 0
  const examples: string[] = []
  const example = (what: string) => void (examples.length < 10 && examples.push(what))
  for (let n = 0; n < opts.agentWrites; n++) {
    const name = `agent-${pattern}-${String(n).padStart(4, '0')}`
    const c = agentSeen.get(name) ?? 0
    if (c === 0) lostLines++
    duplicatedLines += Math.max(0, c - 1)
    if (c !== 1) example(`${name} x${c}`)
  }
  const lostCopies = readdirSync(join(root, '.muse'))
    .filter((n) => n.includes('.muster-lost-'))
    .map((n) => readFileSync(join(root, '.muse', n), 'utf8'))
  let lostEdits = 0
  let reportedEdits = 0
  let duplicatedEdits = 0
  for (let i = 0; i < opts.musterEdits; i++) {
    const title = `edit-${pattern}-${String(i).padStart(4, '0')}`
    const c = editSeen.get(title) ?? 0
    // a failed edit must not be there twice (an agent's copy made after it was written may bring it back once);
    // a successful one present exactly once
    if (failed.has(title)) duplicatedEdits += Math.max(0, c - 1)
    else {
      if (c === 0 && lostCopies.some((t) => t.includes(`🟡 **${title}**`))) reportedEdits++
      else if (c === 0) lostEdits++
      duplicatedEdits += Math.max(0, c - 1)
    }
    if (failed.has(title) ? c > 1 : c !== 1 && !lostCopies.some((t) => t.includes(`🟡 **${title}**`))) example(`${title} x${c}`)
  }
  // copies a refused edit kept beside the file are named in its error: reported, not left over
  const leftovers = readdirSync(join(root, '.muse')).filter(
    (n) => n.includes('.muster-') && !n.includes('.muster-lost-') && !failedEdits.some((f) => f.includes(n))
  )
  // every line is a template line, an agent line, an edit line or its body, written whole
  const template = new Set(role(pattern).split('\n'))
  const whole = new RegExp(
    `^(agent-${pattern}-\\d{4}|📡 \\*\\*S\\d{3}→P-${pattern.toUpperCase()}/QA\\*\\*: 🟡 \\*\\*edit-${pattern}-\\d{4}\\*\\*|> body of edit-${pattern}-\\d{4})$`,
    'u'
  )
  const torn = lines.filter((l) => !template.has(l) && !whole.test(l)).slice(0, 10)
  for (const header of [lines[0]!, '## 📡 战略指令队列', '## Log'])
    if (lines.filter((l) => l === header).length !== 1) torn.push(`${header} x${lines.filter((l) => l === header).length}`)
  return {
    pattern,
    lostLines,
    duplicatedLines,
    lostEdits,
    duplicatedEdits,
    failedEdits,
    latencies,
    leftovers,
    examples,
    torn,
    reportedEdits,
    replacedWrites: replacedWrites.filter((w) => w.path.endsWith(join(`p-${pattern}`, '.muse', 'build.md'))).length,
    reads,
    seconds
  }
}

/** Starts the reader process; resolves with its counts once the stop file appears. */
function startReader(file: string, stop: string): Promise<{ total: number; missing: number }> {
  const proc = spawn('python3', [READER, file, stop], { stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  proc.stdout.on('data', (d: Buffer) => (out += d.toString()))
  return new Promise((resolve, reject) => {
    proc.once('error', reject)
    proc.once('exit', (code) => {
      const m = /reads (\d+) missing (\d+)/.exec(out)
      if (code === 0 && m) resolve({ total: Number(m[1]), missing: Number(m[2]) })
      else reject(new Error(`reader exited with ${code}: ${out}`))
    })
  })
}

/** The Python agent process: its progress, its allowance, its end. */
class Agent {
  readonly done: Promise<void>
  private written = 0
  private finished = false
  private allowed = 40
  private waiters: { n: number; resolve: () => void }[] = []
  private exited = false
  private readonly proc

  constructor(pattern: AgentPattern, file: string, opts: RaceOptions, seed: number) {
    this.proc = spawn(
      'python3',
      [
        opts.agentScript ?? AGENT,
        pattern,
        file,
        String(opts.agentWrites),
        pattern,
        String(opts.agentPauseMs),
        String(seed),
        String(opts.stallEvery ?? 0),
        String(opts.stallMs ?? 0),
        String(opts.stallMaxMs ?? opts.stallMs ?? 0),
        opts.stallWhere ?? 'open'
      ],
      { stdio: ['pipe', 'pipe', 'pipe'] }
    )
    let out = ''
    let err = ''
    this.proc.stdout.on('data', (d: Buffer) => {
      out += d.toString()
      const lines = out.split('\n')
      out = lines.pop()!
      for (const l of lines) {
        const m = /^w (\d+)$/.exec(l)
        if (m) this.progress(Number(m[1]))
        else if (l === `done ${opts.agentWrites}`) this.finished = true
      }
    })
    this.proc.stderr.on('data', (d: Buffer) => (err += d.toString()))
    this.proc.stdin.on('error', () => undefined)
    if (opts.sigstop) void this.freeze(opts.sigstop, seed)
    this.done = new Promise((resolve, reject) => {
      let timedOut = false
      const timer = setTimeout(() => {
        timedOut = true
        this.proc.kill('SIGKILL')
      }, opts.agentTimeoutMs)
      this.proc.once('error', reject)
      this.proc.once('exit', (code, signal) => {
        this.exited = true
        clearTimeout(timer)
        const written = this.written
        this.progress(Infinity)
        if (code === 0 && this.finished) resolve()
        else if (timedOut)
          reject(
            new Error(`${pattern} agent had written ${written} of ${opts.agentWrites} lines after ${opts.agentTimeoutMs / 1000} s: stopped`)
          )
        else reject(new Error(`${pattern} agent exited with ${code ?? signal} after ${written} writes: ${err.trim()}`))
      })
    })
  }

  /** Stops and continues the agent at random until it exits (see `RaceOptions.sigstop`). */
  private async freeze(s: NonNullable<RaceOptions['sigstop']>, seed: number): Promise<void> {
    const random = seededRandom(seed * 7919)
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
    while (!this.exited) {
      await sleep(random() * s.gapMs)
      if (this.exited) return
      this.proc.kill('SIGSTOP')
      await sleep(s.minMs + random() * (s.maxMs - s.minMs))
      if (!this.exited) this.proc.kill('SIGCONT')
    }
  }

  /** Lets the agent write up to `n` lines. */
  allow(n: number): void {
    if (n <= this.allowed) return
    this.allowed = n
    this.proc.stdin.write(`${n}\n`)
  }

  /** Resolves once the agent wrote `n` lines (or ended). */
  reached(n: number): Promise<void> {
    if (this.written >= n) return Promise.resolve()
    return new Promise((resolve) => this.waiters.push({ n, resolve }))
  }

  private progress(n: number): void {
    this.written = Math.max(this.written, n)
    this.waiters = this.waiters.filter((w) => (w.n <= this.written ? (w.resolve(), false) : true))
  }
}
