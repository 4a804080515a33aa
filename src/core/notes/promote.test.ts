import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../../test/helpers/fixtures'
import { makeRepo, type TestRepo } from '../../../test/helpers/git-repo'
import { appendEntries, DECISION_HEADING, DECISIONS_HEADER } from './decisions'
import { applyPromotion, planPromotion } from './promote'
import { readSquadNotes } from './read'

const own = (name: string) => readFileSync(join(REPO_ROOT, 'test/fixtures/squad-notes', name), 'utf8')

/**
 * main: "feat: api v2" with Seven's decision (+ a progress note appended) and Data's decision
 * (no reasoning); branch spike: a research note to archive and a decision that must wait for the
 * merge. Every step is a real git command with a fixed clock, so the commits are always the same.
 */
async function scenario(): Promise<{ repo: TestRepo; api: string; spike: string }> {
  const repo = await makeRepo()
  const api = await repo.commit('feat: api v2', { 'api.txt': 'v2\n' })
  const [decision, progress] = own('after-append.txt').trimEnd().split('\n\n')
  await repo.note('squad/seven', api, decision!)
  await repo.note('squad/seven', api, progress!, 'append')
  await repo.note('squad/data', api, {
    agent: 'Data',
    timestamp: '2026-04-02T12:30:00Z',
    type: 'decision',
    decision: 'Cache tokens for 5 minutes\nRefresh in the background',
    confidence: 'high',
    promote_to_permanent: true
  })
  await repo.git(['checkout', '-q', '-b', 'spike'])
  const spike = await repo.commit('spike: HNSW index', { 'spike.txt': 'x\n' })
  await repo.note('squad/q', spike, {
    agent: 'Q',
    timestamp: '2026-04-04T08:00:00Z',
    type: 'decision',
    decision: 'Adopt HNSW',
    reasoning: '3x recall at 10',
    promote_to_permanent: true
  })
  await repo.note('squad/research', spike, {
    agent: 'Q',
    timestamp: '2026-04-04T09:00:00Z',
    type: 'research',
    topic: 'HNSW vs IVF',
    findings: { recall_at_10: { hnsw: 0.97, ivf: 0.91 } },
    effort_hours: 3,
    archive_on_close: true
  })
  await repo.git(['checkout', '-q', 'main'])
  return { repo, api, spike }
}

const decisionsOf = (repo: TestRepo) => join(repo.dir, '.squad', 'decisions.md')
const expected = () => own('expected-decisions.md')

describe('promotion', () => {
  it('dry run shows exactly what would change and writes nothing', async () => {
    const { repo, api, spike } = await scenario()
    mkdirSync(join(repo.dir, '.squad'))
    writeFileSync(decisionsOf(repo), own('decisions-before.md'))
    const plan = await planPromotion(await readSquadNotes('app', repo.dir))
    expect(plan).toMatchObject({
      decisionsFile: '.squad/decisions.md',
      createsDecisions: false,
      alreadyPromoted: 0,
      alreadyArchived: 0,
      skipped: []
    })
    expect(plan.entries.map((e) => [e.title, e.ref, e.commit])).toEqual([
      ['Version the public API under /v2', 'refs/notes/squad/seven', api],
      ['Cache tokens for 5 minutes', 'refs/notes/squad/data', api]
    ])
    expect(plan.archives.map((a) => [a.file.replace(/-[0-9a-f]{16}\.json$/, ''), a.commit])).toEqual([
      [`.squad/research/research-${spike.slice(0, 12)}`, spike]
    ])
    expect(
      appendEntries(
        own('decisions-before.md'),
        plan.entries.map((e) => e.text)
      )
    ).toBe(expected())
    expect(readFileSync(decisionsOf(repo), 'utf8')).toBe(own('decisions-before.md'))
    expect(existsSync(join(repo.dir, '.squad', 'research'))).toBe(false)
  })

  it('appends entries byte for byte, archives research notes, and is idempotent', async () => {
    const { repo, spike } = await scenario()
    mkdirSync(join(repo.dir, '.squad'))
    writeFileSync(decisionsOf(repo), own('decisions-before.md'))
    const first = await planPromotion(await readSquadNotes('app', repo.dir))
    const done = await applyPromotion(repo.dir, first)
    expect(done.appended).toHaveLength(2)
    expect(readFileSync(decisionsOf(repo), 'utf8')).toBe(expected())
    for (const line of expected()
      .split('\n')
      .filter((l) => l.startsWith('### ')))
      expect(line).toMatch(DECISION_HEADING)
    const archive = first.archives[0]!
    expect(JSON.parse(readFileSync(join(repo.dir, archive.file), 'utf8'))).toEqual({
      ref: 'refs/notes/squad/research',
      commit: spike,
      note: {
        agent: 'Q',
        timestamp: '2026-04-04T09:00:00Z',
        type: 'research',
        topic: 'HNSW vs IVF',
        findings: { recall_at_10: { hnsw: 0.97, ivf: 0.91 } },
        effort_hours: 3,
        archive_on_close: true
      }
    })

    const again = await planPromotion(await readSquadNotes('app', repo.dir))
    expect(again).toMatchObject({ entries: [], archives: [], alreadyPromoted: 2, alreadyArchived: 1 })
    expect(await applyPromotion(repo.dir, again)).toEqual({ appended: [], archived: [] })
    expect(readFileSync(decisionsOf(repo), 'utf8')).toBe(expected())

    // the spike is merged: its decision is promoted now, the earlier ones still once
    await repo.git(['merge', '-q', '--no-ff', '-m', 'merge spike', 'spike'])
    const merged = await planPromotion(await readSquadNotes('app', repo.dir))
    expect(merged.entries.map((e) => e.title)).toEqual(['Adopt HNSW'])
    expect(merged).toMatchObject({ alreadyPromoted: 2, archives: [] })
    await applyPromotion(repo.dir, merged)
    const after = readFileSync(decisionsOf(repo), 'utf8')
    expect(after.startsWith(expected())).toBe(true)
    expect(after.slice(expected().length)).toBe(`\n${merged.entries[0]!.text}`)
    expect(readdirSync(join(repo.dir, '.squad', 'research'))).toHaveLength(1)
  })

  it('creates decisions.md with its header, keeps CRLF files CRLF', async () => {
    const { repo } = await scenario()
    const plan = await planPromotion(await readSquadNotes('app', repo.dir))
    expect(plan.createsDecisions).toBe(true)
    await applyPromotion(repo.dir, plan)
    // the same entries after the header: "\n### ..." each
    const entries = expected().slice(own('decisions-before.md').length + 1)
    expect(readFileSync(decisionsOf(repo), 'utf8')).toBe(DECISIONS_HEADER + entries)

    const crlf = await scenario()
    mkdirSync(join(crlf.repo.dir, '.squad'))
    writeFileSync(decisionsOf(crlf.repo), own('decisions-before.md').replace(/\n/g, '\r\n') + '\r\n')
    await applyPromotion(crlf.repo.dir, await planPromotion(await readSquadNotes('app', crlf.repo.dir)))
    expect(readFileSync(decisionsOf(crlf.repo), 'utf8')).toBe(expected().replace(/\n/g, '\r\n'))
  })

  it("an agent's concurrent edit of decisions.md survives (compare-and-swap, recomputed)", async () => {
    const { repo } = await scenario()
    mkdirSync(join(repo.dir, '.squad'))
    writeFileSync(decisionsOf(repo), own('decisions-before.md'))
    const agentEntry = '\n\n### 2026-04-05T10:00:00Z: Agent wrote this meanwhile\n\n**By:** Worf\n\n**What:** x\n\n**Why:** y\n'
    let raced = false
    const plan = await planPromotion(await readSquadNotes('app', repo.dir))
    await applyPromotion(repo.dir, plan, {
      beforeRename: (path, attempt) => {
        if (attempt === 1 && path.endsWith('decisions.md') && !raced) {
          raced = true
          writeFileSync(path, own('decisions-before.md') + agentEntry)
        }
      }
    })
    expect(readFileSync(decisionsOf(repo), 'utf8')).toBe(
      own('decisions-before.md') + agentEntry + expected().slice(own('decisions-before.md').length + 1)
    )
  })

  it('notes it cannot turn into an entry are skipped with the reason', async () => {
    const repo = await makeRepo()
    const c = await repo.commit('x')
    await repo.note('squad/data', c, {
      agent: 'Data',
      timestamp: 'last tuesday',
      type: 'decision',
      decision: 'd',
      promote_to_permanent: true
    })
    await repo.note(
      'squad/data',
      c,
      { timestamp: '2026-04-01T00:00:00Z', type: 'decision', decision: 'no agent', promote_to_permanent: true },
      'append'
    )
    const plan = await planPromotion(await readSquadNotes('app', repo.dir))
    expect(plan.entries).toEqual([])
    expect(plan.skipped.map((s) => s.reason).sort()).toEqual([
      'the note has no agent for **By:**',
      'timestamp "last tuesday" does not fit a decisions.md heading'
    ])
  })
})
