/**
 * The CLI as a twin of `mempalace logstream|task|artifact` (issue 8, section 2): one test per point, each
 * asserting upstream's exit code and its stdout document or stderr line (upstream
 * cli/cmd_coord.py, cli/parser.py). Upstream: validation errors exit 1 with
 * `json.dumps({"error": msg})` under --json; usage errors (argparse) exit 2 with nothing on
 * stdout; wait 2 on timeout; watch 0 after a match, 2 idle, 130 interrupted.
 */
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { chatAppendArgs } from '../../test/helpers/cli-args'
import { tmpDir } from '../../test/helpers/tmp'
import { PATCH_WARNING_CRLF, PATCH_WARNING_NO_TRAILING_NEWLINE } from '../shared/patch-warnings'
import { runCli } from './index'

type Env = Record<string, string>
interface Run {
  code: number
  out: string
  err: string
}

/** `muster task create` in PROJECT from a to b on main at abc1234; the palace, goal and done come after. */
function taskCreateArgs(project: string): string[] {
  return ['task', 'create', '--project', project, '--from-agent', 'a', '--to-agent', 'b', '--branch', 'main', '--base-commit', 'abc1234']
}

/** Runs the CLI in-process with HOME redirected (and `stdin` as the bytes `-` reads). */
async function run(env: Env, args: string[], stdin?: Uint8Array): Promise<Run> {
  let out = ''
  let err = ''
  const code = await runCli([...args, '--home', env.MUSTER_HOME!], {
    stdout: (t) => (out += t),
    stderr: (t) => (err += t),
    env,
    cwd: env.HOME!,
    ...(stdin ? { readStdin: async () => stdin } : {})
  })
  return { code, out, err }
}

function setup(): { env: Env; palace: string; ls: (...args: string[]) => Promise<Run> } {
  const home = tmpDir()
  const env = { HOME: home, MUSTER_HOME: join(home, '.muster') }
  const palace = join(home, 'palace')
  return { env, palace, ls: (...args) => run(env, ['--palace', palace, ...args]) }
}

/** `events append` with the required routing, returning the stored event. */
async function post(ls: (...a: string[]) => Promise<Run>, fromAgent: string, toAgent: string, ...extra: string[]): Promise<{ id: string }> {
  const r = await ls(
    'events',
    'append',
    '--type',
    'chat.message',
    '--stream',
    'project/x',
    '--room',
    'rooms',
    '--from-agent',
    fromAgent,
    '--to-agent',
    toAgent,
    '--json',
    ...extra
  )
  expect(r.code, r.out + r.err).toBe(0)
  return JSON.parse(r.out) as { id: string }
}

/** Upstream's `--json` error document (`json.dumps({"error": msg})`) and exit 1. */
function expectJsonError(r: Run, message: string): void {
  expect(r).toMatchObject({ code: 1, out: `${JSON.stringify({ error: message }).replace('":', '": ')}\n` })
}

const WATCH = ['events', 'watch', '--poll-timeout-ms', '50'] as const
const TYPE_ERROR = "type='Task.Request' is not a valid event type (lowercase letters, digits, '.', '_', '-'; max 64 chars)"
const STATUS_ERROR = "status='bogus' is not one of: applied, blocked, claimed, failed, open, ready, superseded"

describe('muster events|task: a twin of mempalace logstream (issue 8 section 2)', () => {
  it('1. a bad --since-event-id is refused with nothing written; a vanished stored cursor replays from the start', async () => {
    const { env, ls } = setup()
    const first = await post(ls, 'a', 'me')
    const state = join(env.HOME!, 'me.json')
    const bad = await ls(
      ...WATCH,
      '--to-agent',
      'me',
      '--state-file',
      state,
      '--since-event-id',
      'evt_typo',
      '--idle-exit-ms',
      '100',
      '--json'
    )
    expectJsonError(bad, "since_event_id 'evt_typo' not found. Nothing was written to the state file.")
    expect(existsSync(state)).toBe(false)
    // The next run without the flag is a first run (tip start), not a crash on a stored typo.
    const next = await ls(...WATCH, '--to-agent', 'me', '--state-file', state, '--idle-exit-ms', '100', '--json')
    expect(next.code).toBe(2)
    expect(JSON.parse(readFileSync(state, 'utf8')).cursor).toBe(first.id)
    // A stored cursor whose event has gone: a notice, then a replay from the start (exit 0 on the match).
    writeFileSync(state, JSON.stringify({ cursor: 'evt_gone', updated_at: '2026-01-01T00:00:00Z', agent: null }))
    const vanished = await ls(...WATCH, '--to-agent', 'me', '--state-file', state, '--idle-exit-ms', '2000', '--json')
    expect(vanished.code).toBe(0)
    expect(vanished.err).toBe(
      'Stored cursor evt_gone no longer exists in this log; replaying from the start rather than refusing to run.\n'
    )
    expect(JSON.parse(vanished.out)).toMatchObject({ events: [{ id: first.id }], count: 1, cursor: first.id, timed_out: false })
    // Human output: the error on stderr, still exit 1 and nothing written.
    const human = await ls(...WATCH, '--to-agent', 'me', '--state-file', join(env.HOME!, 'other.json'), '--since-event-id', 'evt_typo')
    expect(human).toMatchObject({
      code: 1,
      out: '',
      err: "Error: since_event_id 'evt_typo' not found. Nothing was written to the state file.\n"
    })
    expect(existsSync(join(env.HOME!, 'other.json'))).toBe(false)
  })

  it('2. invalid filter values exit 1 with the error (watch, single or repeated, and list), before any state is written', async () => {
    const { env, ls } = setup()
    await post(ls, 'a', 'me')
    const state = join(env.HOME!, 'w.json')
    expectJsonError(await ls(...WATCH, '--type', 'Task.Request', '--state-file', state, '--json'), TYPE_ERROR)
    expectJsonError(await ls(...WATCH, '--type', 'patch.ready', '--type', 'Task.Request', '--state-file', state, '--json'), TYPE_ERROR)
    expectJsonError(await ls(...WATCH, '--status', 'bogus', '--state-file', state, '--json'), STATUS_ERROR)
    expect(existsSync(state)).toBe(false)
    expectJsonError(await ls('events', 'list', '--type', 'Task.Request', '--json'), TYPE_ERROR)
    expectJsonError(await ls('events', 'wait', '--status', 'bogus', '--timeout-ms', '10', '--json'), STATUS_ERROR)
    expect(await ls('events', 'list', '--status', 'bogus')).toMatchObject({ code: 1, out: '', err: `Error: ${STATUS_ERROR}\n` })
  })

  it('3. watch --follow: one envelope per batch and a final timed_out envelope, exit 0 after matches; human lines without --json', async () => {
    const { env, ls } = setup()
    const a = await post(ls, 'x', 'me')
    const b = await post(ls, 'x', 'me')
    /** Watches for `me` from the start, following, until 300 ms pass with nothing new; then EXTRA. */
    const follow = (...extra: string[]) => ls(...WATCH, '--to-agent', 'me', '--from-start', '--follow', '--idle-exit-ms', '300', ...extra)
    const json = await follow('--limit', '1', '--state-file', join(env.HOME!, 's1.json'), '--json')
    expect(json.code).toBe(0)
    const lines = json.out.split('\n')
    expect(lines.pop()).toBe('')
    expect(lines).toHaveLength(3)
    // Compact documents as json.dumps(..., ensure_ascii=False) writes them (", " and ": ").
    expect(lines[0]).toMatch(
      new RegExp(`^\\{"events": \\[\\{"id": "${a.id}", .*\\}\\], "count": 1, "cursor": "${a.id}", "timed_out": false\\}$`)
    )
    expect(JSON.parse(lines[0]!).events.map((e: { id: string }) => e.id)).toEqual([a.id])
    expect(JSON.parse(lines[1]!)).toMatchObject({ events: [{ id: b.id }], count: 1, cursor: b.id, timed_out: false })
    expect(lines[2]).toBe(`{"events": [], "count": 0, "cursor": "${b.id}", "timed_out": true}`)
    // Without --json: upstream's human lines, never JSON; the watching notice on stderr.
    const human = await follow('--state-file', join(env.HOME!, 's2.json'))
    expect(human.code).toBe(0)
    expect(human.out).toMatch(
      new RegExp(
        `^2 event\\(s\\):\\n {2}${a.id} {2}\\S+Z {2}chat\\.message {2}project/x/rooms {2}x->me\\n {2}${b.id} .*\\nIdle timeout; no matching events\\.\\n$`
      )
    )
    expect(human.err).toBe('Watching me from now; Ctrl-C to stop.\n')
    // Idle with no match at all: the timed_out envelope (indented, single-shot) and exit 2.
    const idle = await ls(...WATCH, '--to-agent', 'nobody', '--idle-exit-ms', '150', '--state-file', join(env.HOME!, 's3.json'), '--json')
    expect(idle.code).toBe(2)
    expect(idle.out).toBe(`{\n  "events": [],\n  "count": 0,\n  "cursor": "${b.id}",\n  "timed_out": true\n}\n`)
  })

  it('4. --idle-exit-ms 0 (the default) waits forever; a negative one exits 1', async () => {
    const { env, ls } = setup()
    await post(ls, 'x', 'me')
    for (const extra of [['--idle-exit-ms', '0'], []]) {
      const pending = ls(...WATCH, '--to-agent', 'me', '--state-file', join(env.HOME!, `f${extra.length}.json`), '--json', ...extra)
      let settled = false
      void pending.then(() => (settled = true))
      await new Promise((r) => setTimeout(r, 600))
      expect(settled).toBe(false)
      process.emit('SIGINT')
      expect(await pending).toMatchObject({ code: 130, out: '' })
    }
    expectJsonError(
      await ls(...WATCH, '--to-agent', 'me', '--idle-exit-ms', '-1', '--json'),
      '--idle-exit-ms must be zero (wait forever) or a positive number of milliseconds'
    )
  })

  it('5. watch --from-start, --poll-timeout-ms and --limit exist and are validated like upstream', async () => {
    const { env, ls } = setup()
    const a = await post(ls, 'x', 'me')
    await post(ls, 'x', 'me')
    // No state, no cursor: the tip (nothing replayed, exit 2) unless --from-start.
    const tip = await ls(...WATCH, '--to-agent', 'me', '--idle-exit-ms', '150', '--state-file', join(env.HOME!, 't.json'), '--json')
    expect(tip.code).toBe(2)
    expect(tip.err).toMatch(/^Starting at the tip \(evt_\w+\); earlier events are not replayed\./)
    const start = await ls(
      ...WATCH,
      '--to-agent',
      'me',
      '--from-start',
      '--limit',
      '1',
      '--idle-exit-ms',
      '2000',
      '--state-file',
      join(env.HOME!, 'u.json'),
      '--json'
    )
    expect(start.code).toBe(0)
    expect(JSON.parse(start.out)).toMatchObject({ events: [{ id: a.id }], count: 1, cursor: a.id, timed_out: false })
    expectJsonError(
      await ls('events', 'watch', '--to-agent', 'me', '--poll-timeout-ms', '0', '--json'),
      '--poll-timeout-ms must be a positive number of milliseconds'
    )
    expectJsonError(await ls(...WATCH, '--to-agent', 'me', '--limit', '0', '--json'), '--limit must be a positive integer')
    const help = await ls('events', 'watch', '--help')
    for (const flag of ['--from-start', '--poll-timeout-ms <ms>', '--limit <n>', '--idle-exit-ms <ms>']) expect(help.out).toContain(flag)
  })

  it("6. '-' reads stdin for --body-file, --goal-file and --done-file, byte for byte", async () => {
    const { env, palace } = setup()
    const body = 'line one\r\nline two ✓\n'
    const r = await run(env, chatAppendArgs('a', '--palace', palace, '--body-file', '-', '--json'), Buffer.from(body))
    expect(r.code, r.err).toBe(0)
    expect(JSON.parse(r.out).body).toBe(body)
    const task = (extra: string[], stdin: string) =>
      run(env, [...taskCreateArgs('muse'), '--palace', palace, '--json', ...extra], Buffer.from(stdin))
    const goal = await task(['--goal-file', '-', '--done', 'tests pass'], 'Fix the timeout ✓')
    expect(goal.code, goal.err).toBe(0)
    expect(JSON.parse(goal.out).task.body).toMatch(/^Goal:\nFix the timeout ✓\n\nDefinition of done:\ntests pass\n/)
    const done = await task(['--goal', 'Fix it', '--done-file', '-'], 'all green')
    expect(JSON.parse(done.out).task.body).toMatch(/^Goal:\nFix it\n\nDefinition of done:\nall green\n/)
    // A missing file: Python's OSError text, exit 1.
    expectJsonError(
      await run(env, [...taskCreateArgs('p'), '--palace', palace, '--goal-file', 'nope.txt', '--done', 'd', '--json']),
      `[Errno 2] No such file or directory: 'nope.txt'`
    )
  })

  it('7. artifact put|get: exact bytes, upstream flags, documents and exit codes; patch submit stores a patch and its patch.ready', async () => {
    const { env, ls } = setup()
    const bytes = 'diff --git a/x b/x\r\n--- a/x\r\n+++ b/x\r\n@@ -1 +1 @@\r\n-a\r\n+b é'
    const sha = createHash('sha256').update(bytes, 'utf8').digest('hex')
    const size = Buffer.byteLength(bytes)
    // No --content or --file: stdin, byte for byte (CRLF kept); the record as --json, warnings on stderr.
    const put = await run(
      env,
      [
        '--palace',
        join(env.HOME!, 'palace'),
        'artifact',
        'put',
        '--kind',
        'patch',
        '--created-by',
        'mac-codex',
        '--metadata',
        '{"n": 1.0}',
        '--json'
      ],
      Buffer.from(bytes)
    )
    expect(put.code, put.err).toBe(0)
    const rec = JSON.parse(put.out)
    expect(Object.keys(rec)).toEqual(['id', 'kind', 'sha256', 'size_bytes', 'created_by', 'created_at', 'origin_replica', 'warnings'])
    expect(rec).toMatchObject({
      kind: 'patch',
      sha256: sha,
      size_bytes: size,
      created_by: 'mac-codex',
      warnings: [PATCH_WARNING_NO_TRAILING_NEWLINE, PATCH_WARNING_CRLF]
    })
    expect(put.err).toBe(`Warning: ${PATCH_WARNING_NO_TRAILING_NEWLINE}\nWarning: ${PATCH_WARNING_CRLF}\n`)
    // get: the exact bytes on stdout; --out writes them and says so; --json is upstream's record.
    expect(await ls('artifact', 'get', rec.id)).toEqual({ code: 0, out: bytes, err: '' })
    const file = join(env.HOME!, 'back.patch')
    expect(await ls('artifact', 'get', rec.id, '--out', file)).toEqual({
      code: 0,
      out: `Wrote ${size} bytes to ${file}\n  sha256=${sha}\n`,
      err: ''
    })
    expect(readFileSync(file).equals(Buffer.from(bytes))).toBe(true)
    const got = await ls('artifact', 'get', rec.id, '--json')
    expect(Object.keys(JSON.parse(got.out))).toEqual([
      'id',
      'kind',
      'sha256',
      'size_bytes',
      'content',
      'created_by',
      'created_at',
      'origin_replica',
      'metadata'
    ])
    expect(got.out).toContain(`"content": ${JSON.stringify(bytes)},`)
    expect(got.out).toContain('"metadata": {\n    "n": 1.0\n  }')
    const written = JSON.parse((await ls('artifact', 'get', rec.id, '--out', file, '--json')).out)
    expect(written).toMatchObject({ id: rec.id, content_written_to: file })
    expect(written).not.toHaveProperty('content')
    // Human put from a file: upstream's three lines, no warnings for a clean patch.
    const clean = join(env.HOME!, 'clean.patch')
    writeFileSync(clean, 'diff --git a/x b/x\n')
    const human = await ls('artifact', 'put', '--kind', 'patch', '--created-by', 'a', '--file', clean)
    expect(human).toMatchObject({ code: 0, err: '' })
    expect(human.out).toMatch(/^Stored art_\w+ {2}kind=patch\n {2}sha256=[0-9a-f]{64}\n {2}size=19 bytes\n$/)
    // Errors: validation exit 1 with {"error"}, usage exit 2.
    expectJsonError(await ls('artifact', 'get', 'art_missing', '--json'), "artifact 'art_missing' not found")
    expectJsonError(
      await ls('artifact', 'put', '--kind', 'patch', '--created-by', 'a', '--content', 'x', '--file', clean, '--json'),
      'pass inline text or a file, not both'
    )
    expectJsonError(
      await ls('artifact', 'put', '--kind', 'blob', '--created-by', 'a', '--content', 'x', '--json'),
      "kind='blob' is not one of: file, json, log, note, patch"
    )
    const usage = await ls('artifact', 'put', '--kind', 'patch', '--content', 'x', '--json')
    expect(usage).toMatchObject({ code: 2, out: '' })
    expect(usage.err).toMatch(/\nmuster artifact put: error: the following arguments are required: --created-by\n$/)
    // patch submit (upstream has it as the mempalace_patch_submit tool): the artifact and its patch.ready.
    const sub = await ls(
      'patch',
      'submit',
      clean,
      '--to-agent',
      'win-codex',
      '--stream',
      'project/x',
      '--correlation-id',
      'task_1',
      '--json'
    )
    expect(sub.code, sub.err).toBe(0)
    const s = JSON.parse(sub.out)
    expect(s.event).toMatchObject({
      type: 'patch.ready',
      status: 'ready',
      stream: 'project/x',
      room: 'patches',
      to_agent: 'win-codex',
      correlation_id: 'task_1',
      artifact_ids: [s.artifact.id]
    })
    expect(s.artifact).toMatchObject({ kind: 'patch', size_bytes: 19 })
    expect((await ls('artifact', 'get', s.artifact.id)).out).toBe('diff --git a/x b/x\n')
  })

  it('8. usage errors exit 2 the argparse way: stderr only (even with --json), stdout empty', async () => {
    const { ls } = setup()
    const usage = (r: Run, prog: string, message: string): void => {
      expect(r.code).toBe(2)
      expect(r.out).toBe('')
      expect(r.err).toMatch(new RegExp(`^usage: ${prog} .*\\n${prog}: error: ${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n$`))
    }
    usage(
      await ls('events', 'append', '--type', 'x', '--json'),
      'muster events append',
      'the following arguments are required: --stream, --room, --from-agent'
    )
    usage(
      await ls('events', 'list', '--order', 'sideways', '--json'),
      'muster events list',
      "argument --order: invalid choice: 'sideways' (choose from 'asc', 'desc')"
    )
    usage(await ls('events', 'list', '--bogus'), 'muster events list', 'unrecognized arguments: --bogus')
    usage(await ls('events', 'list', '--limit', 'ten'), 'muster events list', "argument --limit: invalid int value: 'ten'")
    usage(await ls('events', 'ack', '--from-agent', 'a'), 'muster events ack', 'the following arguments are required: event_id')
    const task = taskCreateArgs('p')
    usage(
      await ls(...task, '--goal', 'g', '--goal-file', 'f', '--done', 'd', '--json'),
      'muster task create',
      'argument --goal-file: not allowed with argument --goal'
    )
    usage(await ls(...task, '--done', 'd'), 'muster task create', 'one of the arguments --goal --goal-file is required')
  })

  it('9. filter values trimmed; bad --since-created-at and --limit 0 are errors; a repeated list filter keeps the last (OR only on watch, as --help says)', async () => {
    const { ls } = setup()
    await post(ls, 'mac-codex', 'me')
    await post(ls, 'mac-codex', 'me')
    const other = await post(ls, 'win-codex', 'me')
    const padded = await ls('events', 'list', '--from-agent', ' mac-codex ', '--json')
    expect(padded.code).toBe(0)
    expect(JSON.parse(padded.out).count).toBe(2)
    expectJsonError(
      await ls('events', 'list', '--since-created-at', 'yesterday', '--json'),
      "since_created_at='yesterday' is not a valid ISO-8601 date or UTC datetime (expected YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ)"
    )
    expectJsonError(await ls('events', 'list', '--limit', '0', '--json'), 'limit must be a positive integer')
    expectJsonError(await ls('events', 'wait', '--limit', '0', '--timeout-ms', '10', '--json'), 'limit must be a positive integer')
    const last = await ls('events', 'list', '--from-agent', 'mac-codex', '--from-agent', 'win-codex', '--json')
    expect(JSON.parse(last.out)).toMatchObject({ count: 1, events: [{ id: other.id }] })
    expect((await ls('events', 'list', '--help')).out).toMatch(
      /--from-agent <value>\s+writer agent \(one value; a repeated flag keeps the\s+last\)/
    )
    expect((await ls('events', 'watch', '--help')).out).toMatch(/--from-agent <value>\s+writer agent \(repeatable; matches any\)/)
  })

  it("10. invalid UTF-8 in a body file is an error (Python's message), nothing stored; --metadata null is refused", async () => {
    const { env, ls } = setup()
    const kept = await post(ls, 'a', 'b')
    const file = join(env.HOME!, 'body.bin')
    writeFileSync(file, Buffer.from([0x6f, 0x6b, 0xff, 0x0a]))
    const append = chatAppendArgs('a', '--json')
    expectJsonError(await ls(...append, '--body-file', file), "'utf-8' codec can't decode byte 0xff in position 2: invalid start byte")
    expectJsonError(await ls(...append, '--metadata', 'null'), '--metadata must be a JSON object')
    expectJsonError(await ls(...append, '--metadata', '{"a": }'), '--metadata is not valid JSON: Expecting value: line 1 column 7 (char 6)')
    expect(JSON.parse((await ls('events', 'list', '--json')).out)).toMatchObject({ events: [{ id: kept.id }], count: 1 })
  })

  it('11. metadata round-trips verbatim: ints past 2^53 and 1.0 come back as given, sorted as Python stores them', async () => {
    const { ls } = setup()
    const r = await ls(
      ...chatAppendArgs('a', '--json', '--metadata', '{"f": 1.0, "big": 12345678901234567890, "n": [9007199254740993, -0.0, 1e16]}')
    )
    expect(r.code, r.err).toBe(0)
    const meta =
      '"metadata": {\n    "big": 12345678901234567890,\n    "f": 1.0,\n    "n": [\n      9007199254740993,\n      -0.0,\n      1e+16\n    ]\n  }'
    expect(r.out).toContain(meta)
    const listed = await ls('events', 'list', '--json')
    expect(listed.out).toContain(meta.replace(/\n/g, '\n    '))
    const follow = await ls(...WATCH, '--from-start', '--follow', '--idle-exit-ms', '200', '--state-file', '', '--json')
    expect(follow.out.split('\n')[0]).toContain('"metadata": {"big": 12345678901234567890, "f": 1.0, "n": [9007199254740993, -0.0, 1e+16]}')
  })

  it("12. patch warnings are upstream's full sentences, in artifact put (stderr) and patch submit (the record)", async () => {
    const { env, ls } = setup()
    expect(PATCH_WARNING_NO_TRAILING_NEWLINE).toBe(
      'patch content does not end with a trailing newline; git apply will reject the final hunk as corrupt — store the diff byte-exactly including its trailing newline'
    )
    expect(PATCH_WARNING_CRLF).toBe(
      'patch content contains carriage returns (CRLF line endings); git apply often rejects CRLF diffs — generate the diff with LF endings'
    )
    const put = await ls('artifact', 'put', '--kind', 'patch', '--created-by', 'a', '--content', 'x\r\n')
    expect(put.code).toBe(0)
    expect(put.err).toBe(`Warning: ${PATCH_WARNING_CRLF}\n`)
    const file = join(env.HOME!, 'p.patch')
    writeFileSync(file, 'diff')
    const sub = await ls('patch', 'submit', file, '--to-agent', 'b', '--stream', 'project/x', '--json')
    expect(sub.code, sub.err).toBe(0)
    expect(JSON.parse(sub.out).artifact.warnings).toEqual([PATCH_WARNING_NO_TRAILING_NEWLINE])
  })

  it('13. a palace folder without logstream.sqlite3 is opened as upstream opens it: list 0, wait 2, watch 2', async () => {
    const { env, palace } = setup()
    const { mkdirSync } = await import('node:fs')
    mkdirSync(palace)
    const ls = (...args: string[]) => run(env, ['--palace', palace, ...args])
    expect(await ls('events', 'list')).toEqual({ code: 0, out: 'No matching events.\n', err: '' })
    expect(existsSync(join(palace, 'logstream.sqlite3'))).toBe(true)
    expect(await ls('events', 'list', '--json')).toEqual({ code: 0, out: '{\n  "events": [],\n  "count": 0\n}\n', err: '' })
    const other = join(env.HOME!, 'fresh')
    const wait = await run(env, ['--palace', other, 'events', 'wait', '--timeout-ms', '50'])
    expect(wait).toMatchObject({ code: 2, out: 'Timed out; no matching events.\n' })
    const watch = await run(env, [
      '--palace',
      join(env.HOME!, 'fresh2'),
      ...WATCH,
      '--agent',
      'a',
      '--idle-exit-ms',
      '100',
      '--state-file',
      ''
    ])
    expect(watch).toMatchObject({ code: 2, out: 'Idle timeout; no matching events.\n' })
    // a refused write still leaves nothing behind
    const bad = join(env.HOME!, 'untouched')
    mkdirSync(bad)
    expect(
      (await run(env, ['--palace', bad, 'events', 'append', '--type', 'Bad', '--stream', 's', '--room', 'r', '--from-agent', 'a'])).code
    ).toBe(1)
    expect(existsSync(join(bad, 'logstream.sqlite3'))).toBe(false)
  })

  it("14. text-mode errors carry upstream's `Error: ` prefix; a group alone prints its help and exits 0", async () => {
    const { ls } = setup()
    expect(await ls('events', 'list', '--status', 'bogus')).toEqual({ code: 1, out: '', err: `Error: ${STATUS_ERROR}\n` })
    expect(await ls('artifact', 'get', 'art_nope')).toMatchObject({ code: 1, err: "Error: artifact 'art_nope' not found\n" })
    for (const group of ['events', 'task', 'artifact']) {
      const r = await ls(group)
      expect(r.code, group).toBe(0)
      expect(r.err).toBe('')
      expect(r.out).toMatch(new RegExp(`^Usage: muster ${group} \\[options\\] \\[command\\]\\n`))
      expect(r.out).toMatch(/\nCommands:\n/)
    }
  })
})
