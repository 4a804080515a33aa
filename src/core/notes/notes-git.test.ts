import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { describeUpstream, REPO_ROOT, upstreamPath } from '../../../test/helpers/fixtures'
import { makeRepo, type TestRepo } from '../../../test/helpers/git-repo'
import { tmpDir } from '../../../test/helpers/tmp'
import { gitText } from '../git/run'
import { readSquadNotes } from './read'
import { appendCas, writeNote } from './write'

const own = (name: string) => readFileSync(join(REPO_ROOT, 'test/fixtures/squad-notes', name), 'utf8')
const lines = (name: string) => own(name).trimEnd().split('\n').filter(Boolean)
const show = (repo: TestRepo, ref: string, commit: string) => repo.git(['notes', `--ref=${ref}`, 'show', commit]).then((t) => t + '\n')

/**
 * Two machines writing the same agent's notes: `main` adds and appends, a clone appends too, and
 * `main` merges the clone's notes with `git notes merge -s cat_sort_uniq` (the protocol's push
 * conflict recovery). Returns main, the annotated commit and the merged ref.
 */
async function twoMachines(
  ref: string,
  first: string,
  second: string,
  local: string,
  remote: string
): Promise<{ repo: TestRepo; commit: string }> {
  const repo = await makeRepo()
  const commit = await repo.commit('feat: api v2', { 'api.txt': 'v2\n' })
  await repo.note(ref, commit, first, 'add')
  await repo.note(ref, commit, second, 'append')
  const clone = await makeRepo(join(tmpDir(), 'clone'))
  await clone.git(['remote', 'add', 'origin', repo.dir])
  await clone.git(['fetch', '-q', 'origin', 'refs/heads/*:refs/remotes/origin/*', 'refs/notes/*:refs/notes/*'])
  await repo.note(ref, commit, local, 'append')
  await clone.note(ref, commit, remote, 'append')
  await repo.git(['fetch', '-q', clone.dir, `refs/notes/${ref}:refs/notes/remotes/clone/${ref}`])
  await repo.git(['notes', `--ref=${ref}`, 'merge', '-q', '-s', 'cat_sort_uniq', `refs/notes/remotes/clone/${ref}`])
  return { repo, commit }
}

describe('git writes the four body shapes (real git notes add / append / merge -s cat_sort_uniq)', () => {
  it('add, append and a cat_sort_uniq merge produce exactly the fixture bodies', async () => {
    const [decision, progress, local, remote] = lines('after-cat_sort_uniq-merge.txt')
    const repo = await makeRepo()
    const c = await repo.commit('feat: api v2')
    await repo.note('squad/seven', c, decision!, 'add')
    expect(await show(repo, 'squad/seven', c)).toBe(own('after-add.txt'))
    await repo.note('squad/seven', c, progress!, 'append')
    expect(await show(repo, 'squad/seven', c)).toBe(own('after-append.txt'))
    const merged = await twoMachines('squad/seven', decision!, progress!, local!, remote!)
    expect(await show(merged.repo, 'squad/seven', merged.commit)).toBe(own('after-cat_sort_uniq-merge.txt'))
    const pretty = join(tmpDir(), 'note.json')
    writeFileSync(pretty, own('hand-written-pretty.txt'))
    await repo.git(['notes', '--ref=squad/worf', 'add', '-F', pretty, c])
    expect(await show(repo, 'squad/worf', c)).toBe(own('hand-written-pretty.txt'))
  })
})

describe('reading a repository’s squad notes', () => {
  it('every shape, per commit and per agent, with findings; merged commits marked', async () => {
    const [decision, progress, local, remote] = lines('after-cat_sort_uniq-merge.txt')
    const { repo, commit: api } = await twoMachines('squad/seven', decision!, progress!, local!, remote!)
    const docs = await repo.commit('docs: threat model', { 'threat.md': '# Threats\n' })
    const pretty = join(tmpDir(), 'note.json')
    writeFileSync(pretty, own('hand-written-pretty.txt'))
    await repo.git(['notes', '--ref=squad/worf', 'add', '-F', pretty, docs])
    writeFileSync(pretty, own('damaged.txt'))
    await repo.git(['notes', '--ref=squad/worf', 'add', '-F', pretty, api])
    await repo.note('squad/data', docs, {
      agent: 'Worf',
      timestamp: '2026-04-03T11:00:00Z',
      type: 'security',
      content: 'wrote in Data’s namespace'
    })
    await repo.note('squad/research', docs, {
      agent: 'Worf',
      timestamp: '2026-04-03 11:00',
      type: 'benchmark',
      content: 'shared namespace: anyone may append'
    })
    await repo.note('squad/research', docs, { agent: 'Q', type: 'risk-assessment' }, 'append')
    await repo.git(['checkout', '-q', '-b', 'spike'])
    const spike = await repo.commit('spike: HNSW', { 'spike.txt': 'x\n' })
    await repo.note('squad/research', spike, {
      agent: 'Q',
      timestamp: '2026-04-04T08:00:00Z',
      type: 'research',
      topic: 'HNSW',
      findings: {},
      archive_on_close: true
    })
    await repo.git(['checkout', '-q', 'main'])
    await repo.git(['remote', 'add', 'origin', 'https://example.test/app.git'])

    const snap = await readSquadNotes('app', repo.dir)
    expect(snap).toMatchObject({ project: 'app', repo: repo.dir, problem: null, defaultBranch: 'refs/heads/main' })
    expect(snap.commits.map((c) => [c.subject, c.merged])).toEqual([
      ['spike: HNSW', false],
      ['docs: threat model', true],
      ['feat: api v2', true]
    ])
    const apiCommit = snap.commits.find((c) => c.sha === api)!
    expect(apiCommit.bodies.map((b) => [b.namespace, b.shape, b.notes.length])).toEqual([
      ['seven', 'jsonl', 4],
      ['worf', 'appended', 2]
    ])
    const docsCommit = snap.commits.find((c) => c.sha === docs)!
    expect(docsCommit.bodies.map((b) => [b.namespace, b.shape])).toEqual([
      ['data', 'object'],
      ['research', 'appended'],
      ['worf', 'pretty']
    ])
    expect(snap.refs.map((r) => [r.namespace, r.shared, r.bodies, r.notes])).toEqual([
      ['data', false, 1, 1],
      ['research', true, 2, 3],
      ['seven', false, 1, 4],
      ['worf', false, 2, 3]
    ])
    expect(snap.counts).toMatchObject({ notes: 11, bodies: 6, commits: 3 })
    const found = snap.findings.map((f) => [f.code, f.ref, f.commit && f.commit.slice(0, 7), f.line])
    expect(found).toEqual(
      expect.arrayContaining([
        ['refspec-missing', null, null, null],
        ['unparseable', 'refs/notes/squad/worf', api.slice(0, 7), 3],
        ['foreign-namespace', 'refs/notes/squad/data', docs.slice(0, 7), 1],
        ['bad-timestamp', 'refs/notes/squad/research', docs.slice(0, 7), 1],
        ['unknown-type', 'refs/notes/squad/research', docs.slice(0, 7), 1],
        ['missing-field', 'refs/notes/squad/research', docs.slice(0, 7), 3]
      ])
    )
    expect(snap.findings).toHaveLength(6)
    expect(snap.findings.find((f) => f.code === 'missing-field')!.message).toBe('note is missing timestamp, content')
    expect(snap.findings.find((f) => f.code === 'refspec-missing')!.message).toBe(
      "notes from origin are not fetched (no refs/notes/* refspec): git config --add remote.origin.fetch 'refs/notes/*:refs/notes/*' && git fetch origin 'refs/notes/*:refs/notes/*'"
    )
    const only = await readSquadNotes('app', repo.dir, { ref: 'squad/seven' })
    expect(only.refs.map((r) => r.namespace)).toEqual(['seven'])
    expect(only.counts.notes).toBe(4)
  })

  it('the deprecated refs/notes/squad ref is reported; writing beside it fails clearly and changes nothing', async () => {
    const repo = await makeRepo()
    const c = await repo.commit('one')
    await repo.note('squad', c, '{"state":"legacy"}')
    await expect(repo.note('squad/data', c, '{}')).rejects.toThrow(/refs\/notes\/squad' exists; cannot create 'refs\/notes\/squad\/data'/)
    const snap = await readSquadNotes('app', repo.dir)
    expect(snap.findings.map((f) => f.code)).toEqual(['ref-conflict'])
    expect(snap.findings[0]!.message).toMatch(
      /^refs\/notes\/squad \(the deprecated state layer, 1 note\) blocks refs\/notes\/squad\/<agent>: git refuses/
    )
    await expect(writeNote(repo.dir, { agent: 'data', type: 'progress', content: '"x"' })).rejects.toMatchObject({ code: 'conflict' })
    expect(await repo.git(['for-each-ref', 'refs/notes'])).not.toContain('squad/data')
  })

  it('a folder that is not a repository is a problem, not a crash; a remote with the refspec is fine', async () => {
    const plain = tmpDir()
    expect(await readSquadNotes('p', plain)).toMatchObject({ repo: null, problem: `${plain} is not a git repository`, commits: [] })
    const repo = await makeRepo()
    await repo.commit('one')
    await repo.git(['remote', 'add', 'origin', 'https://example.test/x.git'])
    await repo.git(['config', '--add', 'remote.origin.fetch', '+refs/notes/*:refs/notes/*'])
    expect((await readSquadNotes('p', repo.dir)).findings).toEqual([])
  })

  it('reads 10,000 notes with a fixed number of git calls (one notes list per ref, one cat-file batch)', async () => {
    const repo = await makeRepo()
    const n = 10_000
    // fast-import: n commits on main, then one notes commit holding a note on each
    const parts: string[] = []
    for (let i = 1; i <= n; i++)
      parts.push(
        `commit refs/heads/main\nmark :${i}\ncommitter t <t@t> ${1_767_225_600 + i} +0000\ndata 4\nc${String(i).padStart(3, '0').slice(-3)}\n`
      )
    parts.push(`commit refs/notes/squad/data\ncommitter t <t@t> ${1_767_225_600 + n + 1} +0000\ndata 5\nnotes\n`)
    for (let i = 1; i <= n; i++) {
      const body = JSON.stringify({ agent: 'data', timestamp: '2026-04-01T00:00:00Z', type: 'progress', content: `step ${i}` })
      parts.push(`N inline :${i}\ndata ${Buffer.byteLength(body)}\n${body}\n`)
    }
    await gitText(repo.dir, ['fast-import', '--quiet'], { input: parts.join(''), timeoutMs: 120_000 })
    // a git shim that logs every call: the cost must not grow with the number of notes
    const shim = tmpDir()
    const log = join(shim, 'calls.log')
    const realGit = (process.env.PATH ?? '')
      .split(':')
      .map((d) => join(d, 'git'))
      .find((f) => existsSync(f))!
    // argv is `-C <repo> <subcommand> ...`: $3 is the subcommand
    writeFileSync(join(shim, 'git'), `#!/bin/sh\necho "$3" >> '${log}'\nexec '${realGit}' "$@"\n`, { mode: 0o755 })
    const path = process.env.PATH
    process.env.PATH = `${shim}:${path}`
    let snap
    try {
      for (let run = 0; run < 3; run++) snap = await readSquadNotes('big', repo.dir)
    } finally {
      process.env.PATH = path
    }
    expect(snap!.counts).toMatchObject({ notes: n, bodies: n, commits: n, errors: 0 })
    const calls = readFileSync(log, 'utf8').trim().split('\n')
    expect(calls.length / 3).toBeLessThanOrEqual(11)
    expect(calls.filter((c) => c === 'cat-file')).toHaveLength(2 * 3)
  }, 180_000)
})

describe('writing a note (own namespace, append semantics)', () => {
  it('appends to an existing note; objects join the note, other JSON becomes content', async () => {
    const repo = await makeRepo()
    const c = await repo.commit('one')
    await repo.note('squad/data', c, { agent: 'Data', timestamp: '2026-04-01T00:00:00Z', type: 'progress', content: 'first' })
    const now = new Date('2026-04-02T03:04:05.678Z')
    const w = await writeNote(repo.dir, {
      agent: 'Data',
      type: 'decision',
      content: '{"decision":"Use JWT","reasoning":"existing pattern","promote_to_permanent":true}',
      now
    })
    expect(w).toMatchObject({ ref: 'refs/notes/squad/data', commit: c })
    expect(w.note).toMatchObject({ line: 3, promote: true, summary: 'Use JWT', agent: 'Data' })
    expect(w.body).toBe(
      '{"agent":"Data","timestamp":"2026-04-01T00:00:00Z","type":"progress","content":"first"}\n\n' +
        '{"agent":"Data","timestamp":"2026-04-02T03:04:05Z","type":"decision","decision":"Use JWT","reasoning":"existing pattern","promote_to_permanent":true}\n'
    )
    await writeNote(repo.dir, { agent: 'Data', type: 'progress', content: '"step 2"', commit: c, now })
    await writeNote(repo.dir, {
      agent: 'q',
      type: 'research',
      content: '{"topic":"HNSW","findings":{}}',
      ref: 'squad/research',
      commit: 'HEAD',
      now
    })
    const snap = await readSquadNotes('x', repo.dir)
    expect(snap.findings).toEqual([])
    expect(snap.commits[0]!.bodies.map((b) => [b.namespace, b.shape, b.notes.map((n) => n.summary)])).toEqual([
      ['data', 'appended', ['first', 'Use JWT', 'step 2']],
      ['research', 'object', ['HNSW']]
    ])
  })

  it('bad input is refused with one line and writes nothing', async () => {
    const repo = await makeRepo()
    await repo.commit('one')
    const cases: [Parameters<typeof writeNote>[1], RegExp][] = [
      [
        { agent: 'data', type: 'progress', content: '"x"', ref: 'squad/worf' },
        /data may write only refs\/notes\/squad\/data or the shared/
      ],
      [{ agent: 'da ta', type: 'progress', content: '"x"' }, /^--agent must be a single token like mac-claude \(machine-harness\)$/],
      [{ agent: 'data', type: 'gossip', content: '"x"' }, /^unknown note type 'gossip': use one of decision, research/],
      [{ agent: 'data', type: 'progress', content: 'not json' }, /^--content must be JSON/],
      [{ agent: 'data', type: 'progress', content: '{"note":"no content"}' }, /^the note would be missing content$/],
      [{ agent: 'data', type: 'progress', content: '{"agent":"worf","content":"x"}' }, /content sets agent to "worf"/],
      [{ agent: 'data', type: 'progress', content: '{"content":"x","timestamp":"yesterday"}' }, /content timestamp "yesterday" is not/],
      [{ agent: 'data', type: 'progress', content: '"x"', commit: 'no-such' }, /'no-such' is not a commit/],
      [{ agent: 'data', type: 'progress', content: '"x"', commit: '--help' }, /invalid commit/],
      [{ agent: 'data', type: 'progress', content: '"x"', ref: 'squad/../x' }, /invalid notes ref/]
    ]
    for (const [w, message] of cases) await expect(writeNote(repo.dir, w), JSON.stringify(w)).rejects.toThrow(message)
    expect(await repo.git(['for-each-ref', 'refs/notes'])).toBe('')
  })

  it('appends racing on one ref all land (compare-and-swap, not git notes’ blind ref update)', async () => {
    const repo = await makeRepo()
    const c = await repo.commit('one')
    const who = { GIT_AUTHOR_NAME: 'data', GIT_AUTHOR_EMAIL: 'd@x', GIT_COMMITTER_NAME: 'data', GIT_COMMITTER_EMAIL: 'd@x' }
    await Promise.all(Array.from({ length: 6 }, (_, i) => appendCas(repo.dir, 'refs/notes/squad/data', c, JSON.stringify({ n: i }), who)))
    const lines = (await repo.git(['notes', '--ref=squad/data', 'show', c])).split('\n').filter(Boolean)
    expect(lines.sort()).toEqual(Array.from({ length: 6 }, (_, i) => JSON.stringify({ n: i })))
    expect(await repo.git(['for-each-ref', 'refs/notes/muster-append'])).toBe('')
  })

  it('concurrent appends by the same agent all land', async () => {
    const repo = await makeRepo()
    await repo.commit('one')
    const writes = Array.from({ length: 6 }, (_, i) =>
      writeNote(repo.dir, { agent: 'data', type: 'progress', content: JSON.stringify(`parallel ${i}`) })
    )
    await Promise.all(writes)
    const snap = await readSquadNotes('x', repo.dir)
    expect(snap.commits[0]!.bodies[0]!.notes.map((n) => n.summary).sort()).toEqual(Array.from({ length: 6 }, (_, i) => `parallel ${i}`))
  })
})

const upstream = upstreamPath('squad-notes')

describeUpstream('the upstream scenario with real git (shared/fixtures/squad-notes)', () => {
  it('add + append, then a cat_sort_uniq merge, give the upstream bodies byte for byte', async () => {
    const append = readFileSync(join(upstream, 'after-append.txt'), 'utf8')
    const merged = readFileSync(join(upstream, 'after-cat_sort_uniq-merge.txt'), 'utf8')
    const [decision, progress, local, remote] = merged.trimEnd().split('\n')
    const repo = await makeRepo()
    const c = await repo.commit('feat: auth')
    await repo.note('squad/data', c, decision!, 'add')
    await repo.note('squad/data', c, progress!, 'append')
    expect(await show(repo, 'squad/data', c)).toBe(append)
    const two = await twoMachines('squad/data', decision!, progress!, local!, remote!)
    expect(await show(two.repo, 'squad/data', two.commit)).toBe(merged)
    const snap = await readSquadNotes('x', two.repo.dir)
    expect(snap.commits[0]!.bodies[0]).toMatchObject({ shape: 'jsonl', notes: [{ promote: true }, {}, {}, {}] })
    expect(snap.findings).toEqual([])
  })
})
