import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tmpDir } from '../../test/helpers/tmp'
import { watchStateBasename } from '../core/hub/watch/watch-state'
import { runCliWith, type CliRun } from '../../test/helpers/cli'

/** Runs the CLI in-process with HOME redirected. */
function run(env: Record<string, string>, ...args: string[]): Promise<CliRun> {
  return runCliWith(env.MUSTER_HOME!, { env, cwd: process.cwd() }, ...args)
}
function setup(): { env: Record<string, string>; palace: string } {
  const home = tmpDir()
  return { env: { HOME: home, MUSTER_HOME: join(home, '.muster') }, palace: join(home, 'palace') }
}
/** `muster events watch --json` on PALACE, polling every 50 ms, with EXTRA (who, state file, when to stop). */
const watch = (env: Record<string, string>, palace: string, ...extra: string[]) =>
  run(env, 'events', 'watch', '--palace', palace, ...extra, '--poll-timeout-ms', '50', '--json')
const append = (env: Record<string, string>, palace: string, ...extra: string[]) =>
  run(env, 'events', 'append', '--palace', palace, '--type', 'chat.message', '--stream', 'project/x', '--room', 'rooms', '--json', ...extra)
/** `muster task create --json` on PALACE: mac-claude asks win-codex to "Fix it" in PROJECT on main at BASE. */
const createTask = (env: Record<string, string>, palace: string, project: string, base: string) =>
  run(
    env,
    'task',
    'create',
    '--palace',
    palace,
    '--project',
    project,
    '--from-agent',
    'mac-claude',
    '--to-agent',
    'win-codex',
    '--goal',
    'Fix it',
    '--branch',
    'main',
    '--base-commit',
    base,
    '--done',
    'tests pass',
    '--json'
  )

describe('muster events / thread / task (mempalace logstream compatible)', () => {
  it('append, list, ack, thread, task create with --json envelopes; --palace before or after; env resolution', async () => {
    const { env, palace } = setup()
    const a = JSON.parse(
      (await append(env, palace, '--from-agent', 'mac-claude', '--to-agent', '*', '--body', 'hi', '--metadata', '{"b":1,"a":2}')).out
    )
    expect(a).toMatchObject({ type: 'chat.message', to_agent: '*', metadata: { a: 2, b: 1 } })
    const list = await run(env, '--palace', palace, 'events', 'list', '--json', '--to-agent', 'win-codex')
    expect(JSON.parse(list.out)).toEqual({ events: [a], count: 1 })
    const viaEnv = await run({ ...env, MEMPALACE_PALACE_PATH: palace }, 'events', 'list')
    expect(viaEnv.out).toMatch(/^1 event\(s\):\n {2}evt_\w+ {2}\S+Z {2}chat\.message {2}project\/x\/rooms {2}mac-claude->\* :: hi\n$/)
    const ack = JSON.parse(
      (await run(env, 'events', 'ack', a.id, '--from-agent', 'win-codex', '--status', 'claimed', '--palace', palace, '--json')).out
    )
    expect(ack).toMatchObject({ type: 'event.ack', to_agent: 'mac-claude', correlation_id: a.id, metadata: { ack_of: a.id } })
    const thread = JSON.parse((await run(env, 'thread', a.id, '--palace', palace, '--json')).out)
    expect(thread).toMatchObject({ state: 'claimed', claimed_by: 'win-codex', count: 2 })
    const task = await createTask(env, palace, 'muse', 'F631DFE')
    expect(JSON.parse(task.out)).toMatchObject({
      task: { stream: 'project/muse', room: 'delegation', status: 'open', base_commit: 'f631dfe' },
      handoff: expect.stringMatching(/^Open MemPalace task task_fix_it_[0-9a-f]{8} as win-codex/)
    })
  })

  it('task create checks the base commit in a registered project of that name, like the UI', async () => {
    const { env, palace } = setup()
    const repo = join(env.HOME!, 'atlas')
    mkdirSync(join(repo, '.muse'), { recursive: true })
    writeFileSync(join(repo, '.muse', 'ops.md'), '<!-- L0: v1 | x | y -->\n')
    const gitEnv = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' }
    const git = (...a: string[]): string => execFileSync('git', ['-C', repo, ...a], { encoding: 'utf8', env: gitEnv })
    git('init', '-q')
    git('add', '.')
    git('commit', '-qm', 'init')
    const sha = git('rev-parse', 'HEAD').trim()
    expect((await run(env, 'projects', 'add', repo, '--name', 'atlas')).code).toBe(0)
    const task = (project: string, base: string) => createTask(env, palace, project, base)
    const missing = await task('Atlas', 'deadbeef12')
    expect(missing.code).toBe(1)
    expect(JSON.parse(missing.out).error).toMatch(/^task base commit deadbeef12 is not a commit in project 'atlas' /)
    expect(existsSync(join(palace, 'logstream.sqlite3'))).toBe(false) // refused before the hub was touched
    const ok = await task('atlas', sha.slice(0, 10))
    expect(ok.code).toBe(0)
    expect(JSON.parse(ok.out)).toMatchObject({ task: { base_commit: sha.slice(0, 10), stream: 'project/atlas' } })
    expect(Object.keys(JSON.parse(ok.out))).toEqual(['task', 'handoff'])
    // A project Muster does not know is not checked (upstream behaviour).
    expect((await task('elsewhere', 'deadbeef12')).code).toBe(0)
  })

  it('hubs add on a file path says so in one line (was a raw EEXIST)', async () => {
    const { env } = setup()
    const file = join(env.HOME!, 'notes.txt')
    writeFileSync(file, 'x')
    const r = await run(env, 'hubs', 'add', file, '--create')
    expect(r).toMatchObject({ code: 1, out: '' })
    expect(r.err).toBe(`muster: ${file} is a file, not a folder: a hub is a palace folder holding logstream.sqlite3\n`)
  })

  it('errors: one line, {"error"} with --json, exit 1; unknown cursors; wait exits 2 on timeout', async () => {
    const { env, palace } = setup()
    const bad = await append(env, palace, '--from-agent', 'a', '--metadata', '[1]')
    expect(bad).toMatchObject({ code: 1 })
    expect(JSON.parse(bad.out)).toEqual({ error: '--metadata must be a JSON object' })
    const st = await run(
      env,
      'events',
      'append',
      '--palace',
      palace,
      '--type',
      'x',
      '--stream',
      's',
      '--room',
      'r',
      '--from-agent',
      'a',
      '--status',
      'nope'
    )
    expect(st.err).toBe("Error: status='nope' is not one of: applied, blocked, claimed, failed, open, ready, superseded\n")
    await append(env, palace, '--from-agent', 'a')
    const cur = await run(env, 'events', 'list', '--palace', palace, '--since-event-id', 'evt_missing', '--json')
    expect(JSON.parse(cur.out)).toEqual({ error: "since_event_id 'evt_missing' not found" })
    const tip = JSON.parse((await run(env, 'events', 'list', '--palace', palace, '--json')).out).events[0].id
    const w = await run(env, 'events', 'wait', '--palace', palace, '--since-event-id', tip, '--timeout-ms', '300', '--json')
    expect(w.code).toBe(2)
    expect(JSON.parse(w.out)).toEqual({ timed_out: true, events: [], count: 0 })
    const now = await run(env, 'events', 'wait', '--palace', palace, '--json')
    expect(now.code).toBe(0)
    expect(JSON.parse(now.out).count).toBe(1)
  })

  it('watch: tip start without state, idle exit 2, state file via tmp+rename, exclusion beats inclusion, match exit 0', async () => {
    const { env, palace } = setup()
    await append(env, palace, '--from-agent', 'old', '--to-agent', 'bot:my_agent')
    const agent = 'bot:my_agent'
    const stateFile = join(env.HOME!, '.mempalace', 'watch', `${watchStateBasename(agent)}.json`)
    expect(stateFile.endsWith('bot_my__agent.json')).toBe(true)
    const idle = await watch(env, palace, '--agent', agent, '--idle-exit-ms', '150')
    expect(idle.code).toBe(2)
    // --json: no 'Watching ...' line (upstream prints it for humans only)
    expect(idle.err).toMatch(/^Starting at the tip \(evt_\w+\); earlier events are not replayed\./)
    const state = JSON.parse(readFileSync(stateFile, 'utf8'))
    expect(state).toMatchObject({ agent, cursor: expect.stringMatching(/^evt_/), updated_at: expect.stringMatching(/Z$/) })
    expect(JSON.parse(idle.out)).toMatchObject({ events: [], count: 0, timed_out: true, cursor: state.cursor })
    // Own broadcast: matches to_agent='*' but the exclusion wins; the cursor moves past it anyway.
    const own = JSON.parse((await append(env, palace, '--from-agent', agent, '--to-agent', '*')).out)
    const skipped = await watch(env, palace, '--agent', agent, '--idle-exit-ms', '150')
    expect(skipped.code).toBe(2)
    expect(JSON.parse(readFileSync(stateFile, 'utf8')).cursor).toBe(own.id)
    const mine = JSON.parse((await append(env, palace, '--from-agent', 'win-codex', '--to-agent', agent)).out)
    const hit = await watch(env, palace, '--agent', agent, '--idle-exit-ms', '2000')
    expect(hit.code).toBe(0)
    expect(JSON.parse(hit.out)).toEqual({ events: [mine], count: 1, cursor: mine.id, timed_out: false })
    expect(existsSync(`${stateFile}.tmp`)).toBe(false)
  })

  it('watch: empty or corrupt state replays from the start; --follow --json prints one compact envelope per batch; SIGINT exits 130', async () => {
    const { env, palace } = setup()
    const first = JSON.parse((await append(env, palace, '--from-agent', 'a', '--to-agent', 'me')).out)
    const stateFile = join(env.HOME!, 'state.json')
    for (const content of ['', '{not json']) {
      writeFileSync(stateFile, content)
      const r = await watch(env, palace, '--to-agent', 'me', '--state-file', stateFile, '--idle-exit-ms', '500')
      expect(r.code).toBe(0)
      expect(r.err).toContain(`State file ${stateFile} is unreadable; replaying from the start`)
      expect(JSON.parse(r.out).events[0].id).toBe(first.id)
    }
    mkdirSync(join(env.HOME!, 'x'), { recursive: true })
    writeFileSync(stateFile, JSON.stringify({ cursor: null, updated_at: '', agent: null }))
    const pending = watch(env, palace, '--to-agent', 'me', '--state-file', stateFile, '--follow')
    await new Promise((r) => setTimeout(r, 300))
    process.emit('SIGINT')
    const follow = await pending
    expect(follow.code).toBe(130)
    const lines = follow.out.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(JSON.parse(lines[0]!)).toMatchObject({ events: [{ id: first.id }], count: 1, cursor: first.id, timed_out: false })
  })
})
