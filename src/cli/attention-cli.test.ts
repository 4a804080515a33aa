/**
 * The CLI's answers to "what needs me?" and its manners (issue 20, point 7), on the demo fleet:
 * `muster needs`, the needs line of `muster status`, hub commands defaulting to the hub
 * registered first, a wrong `--hub` failing everywhere, a closed pipe ending quietly, `muster` alone
 * printing the help, `patch verify` printing each reason once. Exit codes checked each time.
 */
import { spawn } from 'node:child_process'
import { readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { builtCli } from '../../test/helpers/built-cli'
import { tmpDir } from '../../test/helpers/tmp'
import { NEEDS_SUMMARY_FILE, type NeedsSummary } from '../shared/needs-summary'
import { runCliWith } from '../../test/helpers/cli'
import { printNeedsLine } from './status-needs'

type Run = { code: number; out: string; err: string }

/** Runs the CLI in-process against `home`, with a user home of its own (no default palace there). */
function run(home: string, ...args: string[]): Promise<Run> {
  return runCliWith(home, { env: { HOME: join(home, 'user') }, cwd: process.cwd() }, ...args)
}

let home: string
beforeAll(async () => {
  home = tmpDir()
  expect((await run(home, 'demo')).code).toBe(0)
}, 120_000)

describe('muster needs', () => {
  it('lists the queue; --json counts equal the hub: every pending approval and waiting patch', async () => {
    const j = await run(home, 'needs', '--json')
    expect(j.code).toBe(0)
    const list = JSON.parse(j.out) as { count: number; counts: Record<string, number>; items: { kind: string }[] }
    const approvals = JSON.parse((await run(home, 'approvals', 'list', '--json')).out) as { pending: unknown[] }
    const patches = JSON.parse((await run(home, 'patch', 'list', '--json')).out) as { counts: { waiting: number } }
    expect(list.counts.approval).toBe(approvals.pending.length)
    expect(list.counts.approval).toBeGreaterThan(0)
    expect(list.counts.patch).toBe(patches.counts.waiting)
    expect(list.count).toBe(list.items.length)
    const human = await run(home, 'needs')
    expect(human.code).toBe(0)
    expect(human.out).toMatch(/^WAITING\s+KIND\s+AGENT/)
    expect(human.out).toContain(`${list.count} waiting · unread: `)
    const only = JSON.parse((await run(home, 'needs', '--kind', 'approval', '--json')).out) as { items: { kind: string }[] }
    expect(new Set(only.items.map((i) => i.kind))).toEqual(new Set(['approval']))
    expect(await run(home, 'needs', '--kind', 'bogus')).toMatchObject({ code: 1, err: expect.stringContaining("unknown kind 'bogus'") })
  }, 60_000)
})

describe('hub commands', () => {
  it('default to the hub registered first (the demo hub)', async () => {
    const events = await run(home, 'events', 'list', '--limit', '5')
    expect(events.code).toBe(0)
    expect(events.out).toMatch(/^5 event\(s\):/)
    const patches = await run(home, 'patch', 'list')
    expect(patches.code).toBe(0)
    expect(patches.out).toMatch(/\d+ patches: \d+ waiting/)
  }, 60_000)

  it('the hub registered first stays the default when another is registered; hubs list says so', async () => {
    const other = tmpDir()
    const h2 = tmpDir()
    expect((await run(h2, 'hubs', 'add', join(other, 'a'), '--create', '--name', 'a')).code).toBe(0)
    expect((await run(h2, 'hubs', 'add', join(other, 'b'), '--create', '--name', 'b')).code).toBe(0)
    const r = await run(
      h2,
      'events',
      'append',
      '--type',
      'note',
      '--stream',
      's',
      '--room',
      'r',
      '--from-agent',
      'x',
      '--body',
      'hi',
      '--json'
    )
    expect(r.code, r.err).toBe(0)
    expect(JSON.parse((await run(h2, 'events', 'list', '--hub', 'a', '--json')).out).count).toBe(1)
    expect(JSON.parse((await run(h2, 'events', 'list', '--hub', 'b', '--json')).out).count).toBe(0)
    expect((await run(h2, 'hubs', 'list')).out).toMatch(/\ndefault: a \(registered first\)\n$/)
  }, 60_000)

  it('on a fresh home a read finds no hub: it says which hubs exist and how to pick one, exits 1 and creates nothing outside the home', async () => {
    const fresh = tmpDir()
    const muster = join(fresh, 'muster')
    for (const args of [
      ['events', 'list'],
      ['patch', 'list'],
      ['thread', 'task_x']
    ]) {
      const r = await runCliWith(muster, { env: { HOME: fresh }, cwd: fresh }, ...args)
      expect(r.code, args.join(' ')).toBe(1)
      // events list is a twin of `mempalace logstream list`: its errors carry upstream's prefix
      expect(r.err.replace(/^Error: /, 'muster: ')).toBe(
        `muster: no hub at ${join(fresh, '.mempalace', 'palace')} (logstream.sqlite3 does not exist; the default: MemPalace's default palace; ` +
          'no hub is registered; register one with muster hubs add DIR (--create makes it), or run muster demo)\n'
      )
    }
    expect(readdirSync(fresh)).toEqual(['muster'])
    expect((await runCliWith(muster, { env: { HOME: fresh }, cwd: fresh }, 'hubs', 'list')).out).toBe(
      `no hubs registered (try: muster hubs add PALACE, or --url URL --token-file FILE)\ndefault: ${join(fresh, '.mempalace', 'palace')} (MemPalace's default palace) (no hub yet)\n`
    )
  }, 60_000)

  it.each([
    ['needs'],
    ['approvals', 'list'],
    ['approvals', 'decide', 'appr_x', 'allow'],
    ['events', 'list'],
    ['thread', 'task_x'],
    ['patch', 'list'],
    ['patch', 'verify', 'evt_x'],
    ['artifact', 'get', 'art_x']
  ])('%s %s with a wrong --hub fails (exit 1, one error line, no answer)', async (...args: string[]) => {
    const r = await run(home, ...args, '--hub', 'nope')
    expect(r.code).toBe(1)
    expect(r.err).toMatch(/unknown hub 'nope' \(registered hubs: demo; see: muster hubs list\)\n$/)
    expect(r.err.trim().split('\n')).toHaveLength(1)
    expect(r.out).toBe('')
  })
})

describe('patch verify', () => {
  it('prints each reason of a refusal once (exit 1)', async () => {
    const list = JSON.parse((await run(home, 'patch', 'list', '--json')).out) as { patches: { state: string; event: { id: string } }[] }
    const refused = list.patches.filter((p) => p.state === 'refused')
    expect(refused.length).toBeGreaterThan(0)
    for (const p of refused) {
      const r = await run(home, 'patch', 'verify', p.event.id)
      expect(r.code).toBe(1)
      const reasons = r.out.split('\n').filter((l) => /^[✗!] /.test(l))
      expect(reasons.length).toBeGreaterThan(0)
      expect(new Set(reasons).size).toBe(reasons.length)
    }
  }, 60_000)
})

describe('muster alone', () => {
  it('prints the help and exits 0 (also with global options only)', async () => {
    for (const args of [[], ['--json']]) {
      const r = await run(home, ...args)
      expect(r.code).toBe(0)
      expect(r.out).toMatch(/^Usage: muster \[options\] \[command\]/)
      expect(r.out).toContain('needs')
    }
  })
})

describe('muster status needs line', () => {
  it('ends the fleet status with the queue once `muster needs` summed it up (--json: `needs`); not for --project', async () => {
    await run(home, 'needs')
    const list = JSON.parse((await run(home, 'needs', '--json')).out) as { count: number }
    const s = await run(home, 'status')
    expect(s.code).toBe(0)
    const last = s.out.trimEnd().split('\n').pop()!
    expect(last).toMatch(new RegExp(`^needs you: ${list.count}, oldest waiting \\d+ (s|min|h|d): .+ \\(muster needs\\)$`))
    expect((await run(home, 'status', '--project', 'muse')).out).not.toContain('needs you')
    const json = JSON.parse((await run(home, 'status', '--json')).out) as { count: number; needs: NeedsSummary }
    expect(json).toMatchObject({ count: 3, needs: { count: list.count, hubs: 1 } })
    expect(json.needs.oldest?.title).toBeTruthy()
    expect(JSON.parse((await run(home, 'status', '--project', 'muse', '--json')).out)).not.toHaveProperty('needs')
  }, 60_000)

  it('says nothing without a summary or without hubs; a stale one is shown with its age and refreshed once a minute', () => {
    const h = tmpDir()
    const lines: string[] = []
    const io = { stdout: (t: string) => lines.push(t), stderr: () => undefined, env: {}, cwd: h }
    const refresh = vi.fn()
    printNeedsLine(io, h, refresh)
    expect(lines).toEqual([])
    const now = Date.parse('2026-01-01T12:00:00Z')
    const summary: NeedsSummary = {
      at: '2026-01-01T11:50:00Z',
      hubs: 1,
      count: 2,
      oldest: { kind: 'approval', title: 'win-codex asks to use Bash', since: '2026-01-01T11:42:00Z', link: '#/approvals' },
      unread: { direct: 1, broadcast: 190 },
      failed: 0
    }
    writeFileSync(join(h, NEEDS_SUMMARY_FILE), JSON.stringify(summary))
    printNeedsLine(io, h, refresh, now)
    expect(lines).toEqual([
      '\nneeds you: 2, oldest waiting 18 min: win-codex asks to use Bash · 1 unread direct message · as of 10 min ago (muster needs)\n'
    ])
    expect(refresh).toHaveBeenCalledTimes(1)
    printNeedsLine(io, h, refresh, now)
    expect(refresh).toHaveBeenCalledTimes(1)
    writeFileSync(join(h, NEEDS_SUMMARY_FILE), JSON.stringify({ ...summary, hubs: 0 }))
    lines.length = 0
    printNeedsLine(io, h, refresh, now)
    expect(lines).toEqual([])
  })
})

describe('the built binary', () => {
  const bin = builtCli()

  /** Runs the binary with its stdout closed before it writes; resolves with the exit code and stderr. */
  function closedPipe(...args: string[]): Promise<{ code: number | null; err: string }> {
    return new Promise((done) => {
      const p = spawn(process.execPath, [bin, ...args, '--home', home], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, HOME: join(home, 'user'), MUSTER_NO_BACKGROUND: '1' }
      })
      let err = ''
      p.stderr.on('data', (d: Buffer) => (err += d.toString()))
      p.stdout.destroy()
      p.on('close', (code) => done({ code, err }))
    })
  }

  it.each([
    ['events', 'list'],
    ['events', 'list', '--json'],
    ['needs', '--json'],
    ['approvals', 'list']
  ])(
    '%s %s into a closed pipe ends quietly (exit 0, nothing on stderr)',
    async (...args: string[]) => {
      expect(await closedPipe(...args)).toEqual({ code: 0, err: '' })
    },
    60_000
  )
})
