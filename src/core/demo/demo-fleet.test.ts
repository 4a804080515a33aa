import { describe, it, expect, beforeAll, afterAll } from 'vitest'
import { execFileSync, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { openDatabase, type Db } from '../sqlite'
import { planPromotion } from '../notes/promote'
import { readSquadNotes } from '../notes/read'
import { createDemoFleet, DEMO_MARKER, type DemoFleet } from './demo-fleet'

const L0_RE = /^\uFEFF?<!--\s*L0:\s*(.*?)\s*-->\s*$/
const now = new Date(Date.UTC(2026, 2, 17, 6, 30, 0))
let base: string
let demo: DemoFleet
let db: Db

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'muster-demo-'))
  demo = await createDemoFleet(join(base, 'fleet'), { now })
  db = openDatabase(join(demo.hub, 'logstream.sqlite3'), { readonly: true })
})
afterAll(() => {
  db?.close()
  rmSync(base, { recursive: true, force: true })
})

const roleFiles = (project: string) =>
  readdirSync(join(project, '.muse'))
    .filter((f) => f.endsWith('.md') && f !== 'paths.md')
    .map((f) => join(project, '.muse', f))
const allRoles = () => demo.projects.flatMap((p) => roleFiles(p.path))
const read = (file: string) => readFileSync(file, 'utf8')
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim()

describe('createDemoFleet', () => {
  it('reports its folder, projects and hub', () => {
    expect(demo.dir).toBe(join(base, 'fleet'))
    expect(demo.hub).toBe(join(demo.dir, 'hub'))
    expect(demo.projects.map((p) => p.name)).toEqual(['muse', 'dya', 'atlas'])
    expect(existsSync(join(demo.dir, DEMO_MARKER))).toBe(true)
  })

  it('creates 3+ projects with 4+ role files each, in all the real L0 shapes', () => {
    expect(demo.projects.length).toBeGreaterThanOrEqual(3)
    for (const p of demo.projects) expect(roleFiles(p.path).length).toBeGreaterThanOrEqual(4)
    const bodies = allRoles().map((f) => L0_RE.exec(read(f).split('\n')[0]!)?.[1] ?? null)
    expect(bodies.filter((b) => b === null)).toHaveLength(1) // dya/ops.md, created by /role
    expect(L0_RE.test(read(join(demo.dir, 'dya/.muse/ops.md')).split('\n')[0]!)).toBe(false)
    const present = bodies.filter((b): b is string => b !== null)
    expect(present.some((b) => [...b].length > 120)).toBe(true)
    expect(present.some((b) => !b.includes('|'))).toBe(true)
    expect(present.some((b) => b.split('|').length === 2)).toBe(true)
    expect(present.some((b) => b.split('|').length === 3 && [...b].length <= 120 && /^v\d+\.\d+/.test(b))).toBe(true)
  })

  it('writes every directive form, pending and delivered, and the other real edge cases', () => {
    const all = allRoles().map(read).join('\n')
    expect(all).toMatch(/^📡 \*\*S\d+→[A-Z/]+\*\*: 🟡 \*\*.+\*\*$/m) // SPEC pending
    expect(all).toMatch(/^📡 \*\*S\d+→[A-Z/]+\*\*: ✅ \*\*.+\*\* — 已传递 \d{4}-\d\d-\d\d \d\d:\d\d$/m) // SPEC delivered
    expect(all).toMatch(/^> /m)
    expect(all).toMatch(/^### S\d+→[A-Z]+\/[A-Z]+ \(\d+\/\d+\) — ✅ 已接收 \d+\/\d+ \d\d:\d\d$/m) // HEAD received
    expect(all).toMatch(/^### S\d+→[A-Z]+\/[A-Z]+ \(\d+\/\d+\) ✅ 已拉取$/m)
    expect(all).toMatch(/^### S\d+→[A-Z]+\/[A-Z]+ \(\d+\/\d+\) 🟡 待执行$/m)
    expect(all).toMatch(/^### 📡 S\d+→QA \(\d{4}-\d\d-\d\d \d\d:\d\d\) — 🟡 待处理$/m) // MUSE MCP form
    expect(all).toMatch(/^📡 S\d+→[A-Z]+\/[A-Z]+: .+$/m) // LOOSE
    expect(all).toMatch(/^### 📡 QA→BUILD 通知 \(\d{4}-\d\d-\d\d \d\d:\d\d\)$/m) // NOTICE
    expect(all).toMatch(/^🟡 待 BUILD 处理$/m)
    expect(all).toMatch(/^## 📐 职责边界$/m)
    expect(all).toMatch(/^### ⏳ 待办 \(按优先级\)\n\n#### P0 — 近期$/m)
    expect(all).toMatch(/^## 🎯 TODO$/m)
    expect(all).toMatch(/^- \[ \] /m)
    expect(all).toMatch(/^- \[x\] /m)
    expect(all).toMatch(/```markdown\n## QA Report/) // `##` inside a code fence
    const sizes = allRoles().map((f) => (read(f).match(/\n/g) ?? []).length)
    expect(Math.max(...sizes)).toBeGreaterThan(500)
    expect(Math.max(...sizes)).toBeLessThanOrEqual(800)
    expect(readdirSync(join(demo.dir, 'muse/.muse/archive')).length).toBeGreaterThan(0)
    expect(read(join(demo.dir, 'muse/.muse/paths.md'))).toContain(`STRATEGY_PATH: ${join(demo.dir, 'muse/.muse/strategy.md')}`)
  })

  it('writes memory logs for the last days, MEMORIES.md, CLAUDE.md and USER.md', () => {
    for (const p of demo.projects) {
      const logs = readdirSync(join(p.path, 'memory')).filter((f) => /^\d{4}-\d\d-\d\d\.md$/.test(f))
      expect(logs.length).toBeGreaterThanOrEqual(3)
      const newest = logs.sort().at(-1)!
      expect(Date.parse(newest.slice(0, 10)) - now.getTime()).toBeLessThan(2 * 86_400_000)
      expect(now.getTime() - Date.parse(newest.slice(0, 10))).toBeLessThan(2 * 86_400_000)
      expect(read(join(p.path, 'memory', newest))).toMatch(/^## \[[A-Z]+\] Session \d+: .+ \(\d\d:\d\d-\d\d:\d\d\)\n\n### 完成\n/m)
      const mem = read(join(p.path, 'MEMORIES.md'))
      expect(mem).toMatch(/^## .+\n- \*\*\[(FACT|DECISION|LESSON)\] .+\*\* \(source: memory\/\d{4}-\d\d-\d\d\.md\) \[PERMANENT\]$/m)
      expect(mem).toMatch(/^- ~~\*\*\[FACT\]/m)
      expect(existsSync(join(p.path, 'CLAUDE.md')) && existsSync(join(p.path, 'USER.md'))).toBe(true)
      expect(readdirSync(join(p.path, 'memory/archive')).length).toBe(1)
    }
  })

  it('creates git repositories with tags, agent authors and squad notes', () => {
    const tags = demo.projects.map((p) => git(p.path, 'tag'))
    expect(tags).toEqual(['v2.22.0', 'v1.3.0', 'v0.4.1'])
    for (const p of demo.projects) {
      expect(git(p.path, 'status', '--porcelain')).toBe('')
      expect(Number(git(p.path, 'rev-list', '--count', 'HEAD'))).toBeGreaterThanOrEqual(2)
    }
    const atlas = join(demo.dir, 'atlas')
    const note = git(atlas, 'notes', '--ref=squad/home-bot', 'show', 'HEAD')
      .split('\n\n')
      .map((s) => JSON.parse(s))
    expect(note[0]).toMatchObject({ agent: 'home-bot', type: 'decision', promote_to_permanent: true, confidence: 'high' })
    expect(note[0].timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
    expect(note[1]).toMatchObject({ type: 'progress' })
  })

  it("atlas's notes come in every real body shape, with the findings and promotions the Notes screen shows", async () => {
    const atlas = join(demo.dir, 'atlas')
    const snap = await readSquadNotes('atlas', atlas)
    const shapes = new Set(snap.commits.flatMap((c) => c.bodies.map((b) => b.shape)))
    for (const shape of ['object', 'appended', 'jsonl', 'pretty']) expect(shapes, shape).toContain(shape)
    expect(new Set(snap.findings.map((f) => f.code))).toEqual(
      new Set(['unparseable', 'foreign-namespace', 'unknown-type', 'refspec-missing'])
    )
    expect(snap.commits.filter((c) => !c.merged).map((c) => c.subject)).toEqual(['spike: HNSW index prototype'])
    expect(git(atlas, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('main')
    const plan = await planPromotion(snap)
    expect(plan.entries.map((e) => e.title)).toEqual(['indexAll flushes each batch to SQLite as it fills (S050)'])
    // archive_on_close on the merged head (as Squad v0.12 archives) and on the unmerged spike
    expect(plan.archives.map((a) => snap.commits.find((c) => c.sha === a.commit)?.merged)).toEqual([true, false])
    expect(plan.createsDecisions).toBe(false)
  })

  it('fills the hub with a few hundred events, every task stage, patches and approvals', () => {
    const n = (db.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n
    expect(n).toBeGreaterThanOrEqual(200)
    expect(n).toBeLessThan(1000)
    const statuses = (db.prepare('SELECT DISTINCT status FROM events WHERE status IS NOT NULL').all() as { status: string }[]).map(
      (r) => r.status
    )
    expect(statuses.sort()).toEqual(['applied', 'blocked', 'claimed', 'failed', 'open', 'ready', 'superseded'])
    const latest = db.prepare('SELECT max(created_at) AS m FROM events').get() as { m: string }
    expect(Date.parse(latest.m)).toBeLessThanOrEqual(now.getTime())
    // stuck: a claimed task with nothing after the claim for more than a day
    const stuck = db
      .prepare(
        `SELECT e.correlation_id, e.created_at FROM events e WHERE e.type = 'task.request' AND
      (SELECT status FROM events x WHERE x.correlation_id = e.correlation_id AND x.status IS NOT NULL ORDER BY rowid DESC LIMIT 1) = 'claimed'`
      )
      .all() as { created_at: string }[]
    expect(stuck.some((s) => now.getTime() - Date.parse(s.created_at) > 86_400_000)).toBe(true)
    const presence = db.prepare("SELECT DISTINCT from_agent FROM events WHERE type = 'status' AND to_agent = '*' AND room = 'status'").all()
    expect(presence.length).toBeGreaterThanOrEqual(3)
    const open = db
      .prepare(
        `SELECT count(*) AS n FROM events r WHERE r.type = 'approval.request' AND NOT EXISTS
      (SELECT 1 FROM events d WHERE d.type = 'approval.decision' AND d.correlation_id = r.correlation_id)`
      )
      .get() as { n: number }
    expect(open.n).toBeGreaterThanOrEqual(1)
    const decisions = (
      db.prepare("SELECT metadata_json FROM events WHERE type = 'approval.decision'").all() as { metadata_json: string }[]
    ).map((r) => JSON.parse(r.metadata_json).decision)
    expect(new Set(decisions)).toEqual(new Set(['allow', 'deny', 'timeout']))
    // pending right now: several agents on both hook harnesses, an MCP call, identical requests
    const pending = db
      .prepare(
        `SELECT from_agent, metadata_json FROM events r WHERE r.type = 'approval.request' AND NOT EXISTS
      (SELECT 1 FROM events d WHERE d.type = 'approval.decision' AND d.correlation_id = r.correlation_id) AND r.created_at > ?`
      )
      .all(new Date(now.getTime() - 3600_000).toISOString()) as { from_agent: string; metadata_json: string }[]
    const meta = pending.map((p) => JSON.parse(p.metadata_json) as { harness: string; tool_name: string; tool_input: unknown })
    expect(new Set(pending.map((p) => p.from_agent)).size).toBeGreaterThanOrEqual(3)
    expect(new Set(meta.map((m) => m.harness))).toEqual(new Set(['claude-code', 'codex']))
    expect(meta.some((m) => m.tool_name.startsWith('mcp__'))).toBe(true)
    expect(new Set(meta.map((m) => JSON.stringify(m.tool_input))).size).toBeLessThan(meta.length)
    // a request two operators decided: both decisions kept
    const twice = db
      .prepare("SELECT correlation_id FROM events WHERE type = 'approval.decision' GROUP BY correlation_id HAVING count(*) > 1")
      .all()
    expect(twice).toHaveLength(1)
  })

  it('stores patches whose sha256 matches, one quoting a wrong sha, and a ready one that applies', () => {
    const rows = db
      .prepare(
        `SELECT e.stream, e.body, e.metadata_json, a.content, a.sha256, a.size_bytes FROM events e
      JOIN event_artifacts ea ON ea.event_id = e.id JOIN artifacts a ON a.id = ea.artifact_id WHERE e.type = 'patch.ready'`
      )
      .all() as {
      stream: string
      body: string
      metadata_json: string
      content: string
      sha256: string
      size_bytes: number
    }[]
    expect(rows.length).toBeGreaterThanOrEqual(5)
    const intact = (r: (typeof rows)[number]) =>
      createHash('sha256').update(r.content, 'utf8').digest('hex') === r.sha256 && Buffer.byteLength(r.content) === r.size_bytes
    // exactly one artifact was changed after its sha256 was stored, and its metadata says so
    const tampered = rows.filter((r) => !intact(r))
    expect(tampered).toHaveLength(1)
    expect(JSON.parse(tampered[0]!.metadata_json)).toMatchObject({ demo_tampered: true })
    expect(rows.filter((r) => JSON.parse(r.metadata_json).demo_tampered)).toHaveLength(1)
    const forged = rows.filter((r) => {
      const quoted = JSON.parse(r.metadata_json).sha256 as string | undefined
      const inBody = /sha256: ([0-9a-f]{64})/.exec(r.body)?.[1]
      return quoted !== undefined && quoted !== r.sha256 && inBody === quoted
    })
    expect(forged).toHaveLength(1)
    const applies = rows.filter((r) => {
      const project = join(demo.dir, r.stream.replace('project/', ''))
      return spawnSync('git', ['apply', '--check', '-'], { cwd: project, input: r.content }).status === 0
    })
    expect(applies.length).toBeGreaterThanOrEqual(2) // the ready one and the forged one (its bytes are fine)
    const stale = rows.find((r) => r.body.startsWith('patch ready: label() shows the expiry date'))!
    const check = spawnSync('git', ['apply', '--check', '-'], { cwd: join(demo.dir, 'dya'), input: stale.content, encoding: 'utf8' })
    expect(check.status).not.toBe(0)
    expect(check.stderr).toContain('patch does not apply')
  })

  it('passes test/hub_check.py (MemPalace rules, checked by Python)', () => {
    const script = fileURLToPath(new URL('../../../test/hub_check.py', import.meta.url))
    const res = spawnSync('python3', [script, demo.hub], { encoding: 'utf8' })
    const summary = JSON.parse(res.stdout) as { ok: boolean; violations: unknown[]; events: number }
    expect(summary.violations).toEqual([])
    expect(summary.ok).toBe(true)
    expect(res.status).toBe(0)
  })

  it('refuses a non-empty folder that is not a demo, and re-creates a previous demo', async () => {
    const foreign = join(base, 'foreign')
    mkdirSync(foreign)
    writeFileSync(join(foreign, 'notes.txt'), 'mine')
    await expect(createDemoFleet(foreign, { now })).rejects.toThrow(/not empty and is not a previous Muster demo/)
    expect(readdirSync(foreign)).toEqual(['notes.txt'])
    const file = join(base, 'file')
    writeFileSync(file, 'x')
    await expect(createDemoFleet(file, { now })).rejects.toThrow(/not a folder/)
    const again = join(base, 'again')
    await createDemoFleet(again, { now })
    writeFileSync(join(again, 'stray.txt'), 'left over')
    const second = await createDemoFleet(again, { now })
    expect(existsSync(join(again, 'stray.txt'))).toBe(false)
    expect(second.projects).toHaveLength(3)
  })
})
