import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { makeRepo } from '../../test/helpers/git-repo'
import { tmpDir } from '../../test/helpers/tmp'
import { notesWriteArgs, runCliIn as run } from '../../test/helpers/cli'

async function setup() {
  const home = tmpDir()
  const repo = await makeRepo()
  mkdirSync(join(repo.dir, '.muse'))
  const main = await repo.commit('feat: auth', { '.muse/build.md': '<!-- L0: v1.0.0 | x | y -->\n' })
  await run(home, 'projects', 'add', repo.dir, '--name', 'app')
  return { home, repo, main }
}

/** Data's decision note, marked for promotion. */
const JWT_DECISION = '{"decision":"Use JWT RS256","reasoning":"Matches existing auth pattern","promote_to_permanent":true}'

describe('muster notes', () => {
  it('write appends in the own namespace; list shows every note and the findings', async () => {
    const { home, repo, main } = await setup()
    const w = await run(home, ...notesWriteArgs('app', 'Data', 'decision', JWT_DECISION))
    expect(w).toMatchObject({ code: 0, err: '' })
    expect(w.out).toBe(`appended to refs/notes/squad/data on ${main.slice(0, 12)} (line 1)\n`)
    const j = JSON.parse((await run(home, ...notesWriteArgs('app', 'Data', 'progress', '"step 2"', '--json'))).out)
    expect(j).toMatchObject({ ref: 'refs/notes/squad/data', commit: main, note: { line: 3, summary: 'step 2' } })
    await repo.note('squad/worf', main, 'oops {')

    const human = await run(home, 'notes', 'list', '--project', 'app')
    expect(human.code).toBe(0)
    const lines = human.out.split('\n')
    expect(lines[0]).toBe(`${main.slice(0, 12)}  feat: auth`)
    expect(lines[1]).toBe('  refs/notes/squad/data  appended, 2 notes')
    expect(lines[2]).toMatch(/^ {4}\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ {2}Data {2}decision {2}Use JWT RS256 {2}\[promote\]$/)
    expect(lines[4]).toBe('  refs/notes/squad/worf  unparseable, 0 notes')
    expect(human.out).toContain(`✗ unparseable note text in refs/notes/squad/worf on ${main.slice(0, 12)}, line 1: oops { [unparseable]\n`)
    expect(human.out).toMatch(/2 notes on 1 commit in 2 refs; 1 error, 0 warnings\n$/)
    const json = JSON.parse((await run(home, 'notes', 'list', '--project', 'app', '--ref', 'squad/data', '--json')).out)
    expect(json.refs).toEqual([{ ref: 'refs/notes/squad/data', namespace: 'data', shared: false, bodies: 1, notes: 2 }])
    expect(json.findings).toEqual([])
  })

  it('promote --dry-run shows exactly the entry, promote writes it once', async () => {
    const { home, repo, main } = await setup()
    await run(home, ...notesWriteArgs('app', 'Data', 'decision', JWT_DECISION))
    const dry = await run(home, 'notes', 'promote', '--project', 'app', '--dry-run')
    expect(dry.code).toBe(0)
    expect(dry.out).toMatch(
      /^would append 1 entry to \.squad\/decisions\.md \(new file\):\n\n### \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ: Use JWT RS256\n\n\*\*By:\*\* Data\n\n\*\*What:\*\* Use JWT RS256\n\n\*\*Why:\*\* Matches existing auth pattern\n\n<!-- muster: promoted squad note [0-9a-f]{16} from refs\/notes\/squad\/data on [0-9a-f]{40} -->\n\n0 already promoted, 0 already archived; dry run: nothing written\n$/
    )
    const entry = dry.out.slice(dry.out.indexOf('###'), dry.out.indexOf('-->\n') + 4)
    expect(entry).toContain(main)
    const done = await run(home, 'notes', 'promote', '--project', 'app')
    expect(done.out.startsWith('appended 1 entry to .squad/decisions.md (new file):')).toBe(true)
    expect(readFileSync(join(repo.dir, '.squad/decisions.md'), 'utf8')).toBe(`# Decisions\n\n${entry}`)
    expect((await run(home, 'notes', 'promote', '--project', 'app')).out).toBe(
      'nothing to promote or archive\n1 already promoted, 0 already archived\n'
    )
  })

  it('bad input: one line, exit 1, nothing written', async () => {
    const { home, repo } = await setup()
    const r = await run(home, ...notesWriteArgs('app', 'Data', 'progress', '"x"', '--ref', 'squad/worf'))
    expect(r).toMatchObject({ code: 1, out: '' })
    expect(r.err).toBe(
      'muster: Data may write only refs/notes/squad/data or the shared refs/notes/squad/research and refs/notes/squad/review, not refs/notes/squad/worf\n'
    )
    const j = await run(home, ...notesWriteArgs('app', 'Data', 'progress', 'plain text', '--json'))
    expect(JSON.parse(j.out)).toEqual({ error: '--content must be JSON: an object of note fields, or a quoted string' })
    expect((await run(home, 'notes', 'list', '--project', 'ghost')).err).toBe(
      "muster: unknown project 'ghost' (see: muster projects list)\n"
    )
    expect(await repo.git(['for-each-ref', 'refs/notes'])).toBe('')
  })
})
