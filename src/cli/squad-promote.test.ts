/**
 * Squad as github/squad v0.12 promotes (packages/squad-sdk/src/state-backend.ts,
 * TwoLayerBackend.promoteNotes; cli/commands/notes.ts): `archive_on_close` notes on merged
 * commits are archived (Muster also archives rejected ones, as the protocol says), notes written
 * in someone else's namespace are neither promoted nor archived, a shared namespace keeps its
 * writer's name, and a repository whose state lives on the orphan branch `squad-state` is read
 * and named (what Squad already promoted or archived there counts as done; Muster does not write it).
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { makeRepo } from '../../test/helpers/git-repo'
import { tmpDir } from '../../test/helpers/tmp'
import { notesWriteArgs, runCliIn as run } from '../../test/helpers/cli'

/** A project on main with a merged commit carrying an archive note, a foreign promote note and an owner's one. */
async function setup() {
  const home = tmpDir()
  const repo = await makeRepo()
  mkdirSync(join(repo.dir, '.muse'))
  const merged = await repo.commit('feat: index', { '.muse/build.md': '<!-- L0: v1.0.0 | x | y -->\n' })
  await repo.note('squad/research', merged, {
    agent: 'Q',
    timestamp: '2026-04-04T09:00:00Z',
    type: 'research',
    topic: 'HNSW vs IVF',
    findings: { recall: 0.97 },
    archive_on_close: true
  })
  await repo.note('squad/data', merged, {
    agent: 'Worf',
    timestamp: '2026-04-04T10:00:00Z',
    type: 'decision',
    decision: 'Speak for Data',
    reasoning: 'none',
    promote_to_permanent: true
  })
  await repo.note('squad/seven', merged, {
    agent: 'Seven',
    timestamp: '2026-04-04T11:00:00Z',
    type: 'decision',
    decision: 'Keep v1 routes',
    reasoning: 'clients pin them',
    promote_to_permanent: true
  })
  expect((await run(home, 'projects', 'add', repo.dir, '--name', 'app')).code).toBe(0)
  return { home, repo, merged }
}

interface Plan {
  entries: { title: string }[]
  archives: { file: string; commit: string }[]
  skipped: { ref: string; reason: string }[]
  alreadyArchived: number
  alreadyPromoted: number
  stateBackend: { kind: string; branch: string | null; branchExists: boolean | null }
}

describe('squad notes promote as v0.12 does', () => {
  it('--dry-run lists the archive of an archive_on_close note on a merged commit; a foreign-namespace note is skipped', async () => {
    const { home, merged } = await setup()
    const dry = await run(home, 'notes', 'promote', '--project', 'app', '--dry-run')
    expect(dry.code, dry.err).toBe(0)
    expect(dry.out).toMatch(new RegExp(`would write \\.squad/research/research-${merged.slice(0, 12)}-[0-9a-f]+\\.json:\\n\\{`))
    expect(dry.out).toContain('"archive_on_close": true')
    expect(dry.out).toContain("not promoted: written by Worf in data's namespace (foreign-namespace)")
    const plan = JSON.parse((await run(home, 'notes', 'promote', '--project', 'app', '--dry-run', '--json')).out) as Plan
    expect(plan.entries.map((e) => e.title)).toEqual(['Keep v1 routes'])
    expect(plan.archives.map((a) => a.commit)).toEqual([merged])
    expect(plan.skipped.map((s) => s.ref)).toEqual(['refs/notes/squad/data'])
    expect(plan.stateBackend).toEqual({ kind: 'local', branch: null, branchExists: null })
    // applied: the archive is written, and a second run finds it done
    expect((await run(home, 'notes', 'promote', '--project', 'app')).code).toBe(0)
    const again = JSON.parse((await run(home, 'notes', 'promote', '--project', 'app', '--dry-run', '--json')).out) as Plan
    expect([again.archives.length, again.alreadyArchived, again.entries.length, again.alreadyPromoted]).toEqual([0, 1, 0, 1])
  })

  it('a shared namespace keeps the writer: --agent research is refused, --ref squad/research keeps --agent', async () => {
    const { home } = await setup()
    const bad = await run(home, ...notesWriteArgs('app', 'research', 'research', '{"topic":"t","findings":{}}'))
    expect(bad.code).not.toBe(0)
    expect(bad.err).toContain(
      'research is a shared namespace, not an agent: write as yourself into it (--agent <you> --ref squad/research)'
    )
    const good = await run(
      home,
      ...notesWriteArgs('app', 'mac-claude', 'research', '{"topic":"t","findings":{}}', '--ref', 'squad/research', '--json')
    )
    expect(good.code, good.err).toBe(0)
    expect(JSON.parse(good.out)).toMatchObject({ ref: 'refs/notes/squad/research', note: { agent: 'mac-claude', namespace: 'research' } })
  })

  it('state kept on the orphan branch squad-state: named in the snapshot, Squad’s own archive counts, Muster does not write', async () => {
    const { home, repo, merged } = await setup()
    mkdirSync(join(repo.dir, '.squad'), { recursive: true })
    writeFileSync(join(repo.dir, '.squad', 'config.json'), '{"stateBackend": "two-layer"}\n')
    // what Squad's OrphanBranchBackend writes: a commit on refs/heads/squad-state holding archive/<ref>/<sha>.json
    const file = join(tmpDir(), 'note.json')
    writeFileSync(file, '{"archive_on_close": true}\n')
    const sha = await repo.git(['hash-object', '-w', file])
    const tree = await mktree(repo.dir, [`archive/squad/research/${merged}.json`], sha)
    const commit = await repo.git(['commit-tree', tree, '-m', 'Update archive'])
    await repo.git(['update-ref', 'refs/heads/squad-state', commit])

    const list = JSON.parse((await run(home, 'notes', 'list', '--project', 'app', '--json')).out) as {
      stateBackend: Plan['stateBackend']
      stateFiles: number
    }
    expect([list.stateBackend, list.stateFiles]).toEqual([{ kind: 'two-layer', branch: 'squad-state', branchExists: true }, 1])
    const plan = JSON.parse((await run(home, 'notes', 'promote', '--project', 'app', '--dry-run', '--json')).out) as Plan
    expect([plan.archives.length, plan.alreadyArchived, plan.entries.length]).toEqual([0, 1, 1])
    const applied = await run(home, 'notes', 'promote', '--project', 'app')
    expect(applied.code).not.toBe(0)
    expect(applied.err).toContain("keeps Squad's state on branch squad-state (stateBackend two-layer): Muster does not write there")
  })
})

/** A tree holding `paths` (nested folders made with mktree), each the blob `sha`. */
async function mktree(dir: string, paths: string[], sha: string): Promise<string> {
  const { gitText } = await import('../core/git')
  const build = async (entries: string[][]): Promise<string> => {
    const files = entries.filter((p) => p.length === 1).map((p) => `100644 blob ${sha}\t${p[0]}`)
    const dirs = new Map<string, string[][]>()
    for (const p of entries.filter((x) => x.length > 1)) dirs.set(p[0]!, [...(dirs.get(p[0]!) ?? []), p.slice(1)])
    const subs: string[] = []
    for (const [name, rest] of dirs) subs.push(`040000 tree ${await build(rest)}\t${name}`)
    return gitText(dir, ['mktree'], { input: [...files, ...subs].join('\n') + '\n' })
  }
  return build(paths.map((p) => p.split('/')))
}
