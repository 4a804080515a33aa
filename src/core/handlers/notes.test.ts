import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { makeRepo } from '../../../test/helpers/git-repo'
import { servicesClosedAfterEach } from '../../../test/helpers/test-service'
import { tmpDir } from '../../../test/helpers/tmp'
import type { PushedEvent } from '../../shared/api'
import type { MusterService } from '../service-types'

const service = servicesClosedAfterEach()

/** A registered MUSE project whose folder is a git repository with one commit. */
async function project(s: MusterService) {
  const repo = await makeRepo()
  mkdirSync(join(repo.dir, '.muse'))
  const head = await repo.commit('init', { '.muse/build.md': '<!-- L0: v1.0.0 | x | y -->\n' })
  await s.call('projects.add', { path: repo.dir, name: 'app' })
  return { repo, head }
}

describe('notes handlers', () => {
  it('list, write (own namespace) and promote through the contract', async () => {
    const s = await service()
    const { repo, head } = await project(s)
    expect(await s.call('notes.list', { project: 'app' })).toMatchObject({ repo: repo.dir, commits: [], findings: [] })
    const w = await s.call('notes.write', {
      project: 'app',
      agent: 'Data',
      type: 'decision',
      content: '{"decision":"Use JWT","reasoning":"pattern","promote_to_permanent":true}'
    })
    expect(w).toMatchObject({ project: 'app', ref: 'refs/notes/squad/data', commit: head, note: { promote: true } })
    await expect(
      s.call('notes.write', { project: 'app', agent: 'Data', type: 'progress', content: '"x"', ref: 'squad/worf' })
    ).rejects.toMatchObject({ code: 'forbidden' })
    await expect(s.call('notes.write', { project: 'app', agent: 'Data', type: 'gossip' as 'progress', content: '"x"' })).rejects.toThrow(
      /^invalid input for notes.write: type: type must be one of decision/
    )
    const list = await s.call('notes.list', { project: 'app', ref: 'squad/data' })
    expect(list.counts).toMatchObject({ notes: 1, commits: 1 })

    const dry = await s.call('notes.promote', { project: 'app', dryRun: true })
    expect(dry).toMatchObject({ dryRun: true, decisionsFile: '.squad/decisions.md', createsDecisions: true, appended: [] })
    expect(dry.entries.map((e) => e.title)).toEqual(['Use JWT'])
    const done = await s.call('notes.promote', { project: 'app' })
    expect(done.appended).toEqual([dry.entries[0]!.noteId])
    expect(readFileSync(join(repo.dir, '.squad/decisions.md'), 'utf8')).toBe(`# Decisions\n\n${dry.entries[0]!.text}`)
    expect(await s.call('notes.promote', { project: 'app' })).toMatchObject({ entries: [], alreadyPromoted: 1, appended: [] })
  })

  it('a project outside any repository: list says why, write and promote refuse', async () => {
    const s = await service()
    const dir = join(tmpDir(), 'plain')
    mkdirSync(join(dir, '.muse'), { recursive: true })
    await s.call('projects.add', { path: dir, name: 'plain' })
    expect(await s.call('notes.list', { project: 'plain' })).toMatchObject({ repo: null, problem: `${dir} is not a git repository` })
    await expect(s.call('notes.promote', { project: 'plain' })).rejects.toThrow(/project 'plain' has no git repository/)
  })

  it('live: a note written by another process pushes notes.changed and the next list shows it', async () => {
    const s = await service(true)
    const { repo, head } = await project(s)
    const pushed: PushedEvent[] = []
    s.subscribe((e) => pushed.push(e))
    expect((await s.call('notes.list', { project: 'app' })).counts.notes).toBe(0)
    // no wait for the watcher (it starts after the first read): a note that lands before it watches is reported too
    const started = Date.now()
    await repo.note('squad/worf', head, { agent: 'Worf', timestamp: '2026-04-01T00:00:00Z', type: 'security', content: 'ok' })
    while (!pushed.some((e) => e.name === 'notes.changed') && Date.now() - started < 30_000) await new Promise((r) => setTimeout(r, 20))
    expect(pushed.find((e) => e.name === 'notes.changed')?.payload).toMatchObject({ project: 'app' })
    expect((await s.call('notes.list', { project: 'app' })).counts.notes).toBe(1)
    // watched by now: the next note is reported by the watch itself
    pushed.length = 0
    const again = Date.now()
    await repo.note('squad/data', head, { agent: 'Data', timestamp: '2026-04-01T00:01:00Z', type: 'review', content: 'also ok' })
    while (!pushed.some((e) => e.name === 'notes.changed') && Date.now() - again < 30_000) await new Promise((r) => setTimeout(r, 20))
    expect(pushed.find((e) => e.name === 'notes.changed')?.payload).toMatchObject({ project: 'app' })
    expect((await s.call('notes.list', { project: 'app' })).counts.notes).toBe(2)
  }, 90_000)
})
