/**
 * `muster status`'s snapshot (status-snapshot.ts, status-cards.ts, core/fleet/project-stamps.ts):
 * a card printed from it is exactly what a full read prints, and every change a card depends on
 * (a role file's bytes, even with its size and mtime put back; a role file added or removed; a
 * link's target becoming a file; a memory note added or edited; the registry) makes that project
 * read again while the others stay answered; a snapshot replaced or damaged costs speed, never a
 * wrong card.
 */
import { appendFileSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tmpDir, writeTree } from '../../test/helpers/tmp'
import { openStateDb } from '../core/fleet/state-db'
import { stateDbStampsNow } from '../core/fleet/state-db-stamps'
import { ProjectRegistry } from '../core/fleet/registry'
import { RACY_MS } from '../shared/file-stamp'
import { createService } from '../core/root'
import { runCli } from './index'
import type { CliIo } from './output'
import { lookUpSnapshot, renderBody } from './status-cards'
import { answerFromSnapshot } from './status-main'
import { parseStatusArgv } from './commands/status'
import { builtCli } from '../../test/helpers/built-cli'
import { spawnSync } from 'node:child_process'
import { SNAPSHOT_FORMAT, STATUS_SNAPSHOT_FILE, StatusSnapshot } from './status-snapshot'
import { fleetStatusAt } from '../core/fleet/fleet-status'
import { createHash } from 'node:crypto'

const BRAVO_TIME = new Date('2026-11-01T00:00:00Z')
const NAMES = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'] as const

function role(name: string, version: string): string {
  return `<!-- L0: ${version} | P0=交付 ${name} 🚀 | QA PASS -->\n# ${name}\n\n## Directives\n- 🟡 D-1 from MUSE/GM: ship it\n- [ ] open item\n`
}

/** A home with the eight projects registered, each with two role files and a memory log. */
async function fleet(): Promise<{ home: string; root: string; path: (name: string) => string }> {
  const root = tmpDir()
  const home = tmpDir()
  for (const n of NAMES) {
    writeTree(join(root, n), { '.muse/build.md': role(n, 'v1.0.0'), '.muse/qa.md': role(n, 'v1.0.1'), 'memory/2026-12-01.md': '# log\n' })
  }
  // a whole-second mtime, which utimes can put back exactly (bravo's edit below keeps it)
  utimesSync(join(root, 'bravo', '.muse', 'qa.md'), BRAVO_TIME, BRAVO_TIME)
  mkdirSync(join(root, 'hotel', 'outside.md')) // a folder named like a role file: what hotel's link points at
  symlinkSync(join(root, 'hotel', 'outside.md'), join(root, 'hotel', '.muse', 'ext.md'))
  const service = await createService({ home, transport: 'http', watch: false })
  for (const n of NAMES) await service.call('projects.add', { path: join(root, n), name: n })
  await service.close()
  return { home, root, path: (n) => join(root, n) }
}

function io(): CliIo & { out: () => string } {
  let out = ''
  return { stdout: (t) => (out += t), stderr: () => undefined, env: {}, cwd: process.cwd(), out: () => out }
}

/** `muster ...args` through the whole CLI (which reads what the snapshot cannot answer, and keeps it). */
async function cli(...args: string[]): Promise<string> {
  const o = io()
  expect(await runCli(args, o)).toBe(0)
  return o.out()
}

/** `muster ...args` answered from the snapshot alone, or null when it cannot answer. */
function fromSnapshot(...args: string[]): string | null {
  const o = io()
  return answerFromSnapshot(args, o) ? o.out() : null
}

/** Text output without the ages (they move with the clock between two runs). */
function ageless(text: string): string {
  return text.replace(/last change .*$/gm, 'last change …')
}

const settle = (): Promise<void> => new Promise((r) => setTimeout(r, RACY_MS + 100))

/** Projects whose cards the snapshot of `home` holds as they are now. */
function answered(home: string): string[] {
  const found = lookUpSnapshot(home, { json: false })!
  return found.projects.filter((_, i) => found.cards[i] !== null).map((p) => p.name)
}

describe('muster status snapshot', () => {
  it('prints exactly what a full read prints, only once the files are settled', async () => {
    const { home } = await fleet()
    // files written within the racy window are never kept: the first runs read everything
    const first = await cli('status', '--json', '--home', home)
    expect(fromSnapshot('status', '--json', '--home', home)).toBeNull()
    await settle()
    const full = await cli('status', '--json', '--home', home)
    expect(full).toBe(first)
    expect(fromSnapshot('status', '--json', '--home', home)).toBe(full)
    expect(ageless(fromSnapshot('status', '--home', home)!)).toBe(ageless(await cli('status', '--home', home)))
    expect(fromSnapshot('status', '--project', 'CHARLIE', '--home', home)).toBe(await cli('status', '--project', 'charlie', '--home', home))
    // the file is ASCII (read as latin1) yet the cards keep their CJK and emoji
    expect(readFileSync(join(home, STATUS_SNAPSHOT_FILE)).every((b) => b < 0x80)).toBe(true)
    expect(full).toContain('P0=交付 alpha 🚀')
    // a call the snapshot cannot take is left to the CLI: help, an unknown project, another command
    expect(fromSnapshot('status', '--help', '--home', home)).toBeNull()
    expect(fromSnapshot('status', '--project', 'nope', '--home', home)).toBeNull()
    expect(fromSnapshot('lint', '--home', home)).toBeNull()
  }, 240_000)

  it('reads again exactly the projects whose cards changed', async () => {
    const { home, root, path } = await fleet()
    await settle()
    await cli('status', '--home', home)
    expect(answered(home)).toEqual([...NAMES])

    appendFileSync(join(path('alpha'), '.muse', 'build.md'), '- 🟡 D-2 from MUSE/GM: more\n')
    // bravo: same size, mtime put back: only the ctime tells
    const qa = join(path('bravo'), '.muse', 'qa.md')
    const before = statSync(qa)
    writeFileSync(qa, readFileSync(qa, 'utf8').replace('v1.0.1', 'v9.0.1'))
    utimesSync(qa, BRAVO_TIME, BRAVO_TIME)
    expect([statSync(qa).size, statSync(qa).mtimeMs]).toEqual([before.size, before.mtimeMs])
    writeFileSync(join(path('charlie'), '.muse', 'ops.md'), role('charlie', 'v2.0.0'))
    rmSync(join(path('delta'), '.muse', 'qa.md'))
    writeFileSync(join(path('echo'), 'memory', '2026-12-02.md'), '# log\n')
    appendFileSync(join(path('foxtrot'), 'memory', '2026-12-01.md'), 'more\n')
    const db = openStateDb(home)
    new ProjectRegistry(db).setKey('golf', 'GOLFX')
    db.close()
    rmSync(join(root, 'hotel', 'outside.md'), { recursive: true })
    writeFileSync(join(root, 'hotel', 'outside.md'), role('hotel', 'v3.0.0')) // the link now points at a role file

    expect(answered(home)).toEqual([])
    const json = JSON.parse(await cli('status', '--json', '--home', home)) as {
      projects: { name: string; key: string; roles: { file: string; l0: { version: string } | null }[]; lastMemoryLog: string | null }[]
    }
    const byName = new Map(json.projects.map((p) => [p.name, p]))
    expect(byName.get('bravo')!.roles.find((r) => r.file === 'qa.md')!.l0!.version).toBe('v9.0.1')
    expect(byName.get('charlie')!.roles.map((r) => r.file)).toEqual(['build.md', 'ops.md', 'qa.md'])
    expect(byName.get('delta')!.roles.map((r) => r.file)).toEqual(['build.md'])
    expect(byName.get('echo')!.lastMemoryLog).toBe('2026-12-02.md')
    expect(byName.get('golf')!.key).toBe('GOLFX')
    expect(byName.get('hotel')!.roles.map((r) => r.file)).toEqual(['build.md', 'ext.md', 'qa.md'])

    // the changed files are inside the racy window: read again, and kept once settled
    await settle()
    await cli('status', '--home', home)
    expect(answered(home)).toEqual([...NAMES])
    expect(fromSnapshot('status', '--json', '--home', home)).toBe(await cli('status', '--json', '--home', home))

    // one project edited: only it is read again
    appendFileSync(join(path('echo'), '.muse', 'qa.md'), 'x\n')
    expect(answered(home)).toEqual(NAMES.filter((n) => n !== 'echo'))
  }, 240_000)

  it('a damaged, foreign or replaced snapshot costs a full read, never a wrong card', async () => {
    const { home } = await fleet()
    await settle()
    const full = await cli('status', '--json', '--home', home)
    const file = join(home, STATUS_SNAPSHOT_FILE)
    const good = readFileSync(file)

    writeFileSync(file, good.subarray(0, good.length - 100)) // cut short: the JSON section lacks lines
    expect(fromSnapshot('status', '--json', '--home', home)).toBeNull()
    writeFileSync(file, good.toString('latin1').replace('"parser":', '"parser":99,"was":'), 'latin1') // another version
    expect(fromSnapshot('status', '--home', home)).toBeNull()
    writeFileSync(file, 'not a snapshot\n')
    expect(fromSnapshot('status', '--home', home)).toBeNull()
    expect(await cli('status', '--json', '--home', home)).toBe(full) // and the CLI writes a good one again
    expect(fromSnapshot('status', '--json', '--home', home)).toBe(full)

    // a snapshot read without its JSON, then replaced by another command: saving it would need the
    // JSON of cards from a file that is gone, so it does not save (the other command's stands)
    const a = StatusSnapshot.read(home, false)
    a.retain([])
    const other = StatusSnapshot.read(home, true)
    other.retain([])
    other.save()
    const replaced = readFileSync(file)
    a.save()
    expect(readFileSync(file)).toEqual(replaced)
  }, 240_000)
})

describe('an empty registry', () => {
  it('is kept and answered too, with and without --json', async () => {
    const home = tmpDir()
    await (await createService({ home, transport: 'http', watch: false })).close()
    await settle()
    const json = await cli('status', '--json', '--home', home)
    expect(JSON.parse(json)).toEqual({ projects: [], count: 0, needs: null })
    // kept under the DB's stamps (the empty write-ahead log the read-only open created counts as none)
    expect(readFileSync(join(home, 'muster.sqlite3-wal')).length).toBe(0)
    expect(StatusSnapshot.read(home, true).registry(stateDbStampsNow(home)!)).toEqual([])
    expect(fromSnapshot('status', '--json', '--home', home)).toBe(json)
    expect(fromSnapshot('status', '--home', home)).toBe('no projects registered (try: muster projects scan DIR, or muster demo)\n')
  })
})

describe('a plain status call (parseStatusArgv)', () => {
  it('takes the global options and --project around the command word, as commander does; anything else is left to commander', () => {
    expect(parseStatusArgv(['status'])).toEqual({ json: false })
    expect(parseStatusArgv(['--home', '/h', 'status', '--json', '--project=x'])).toEqual({ home: '/h', json: true, project: 'x' })
    expect(parseStatusArgv(['--json', '--home=/h', '--palace', '/p', 'status', '--project', 'a', '--project', 'b'])).toEqual({
      home: '/h',
      json: true,
      project: 'b'
    })
    for (const argv of [
      [],
      ['lint'],
      ['--project', 'a', 'status'],
      ['status', '--help'],
      ['status', '-h'],
      ['status', 'extra'],
      ['status', '--home'],
      ['status', '--project', '--json'],
      ['status', '--', 'x'],
      ['status', 'status'],
      ['status', '--verbose']
    ]) {
      expect(parseStatusArgv(argv), argv.join(' ')).toBeNull()
    }
  })
})

describe('the muster binary', () => {
  const bin = builtCli()

  it('answers status from the snapshot in its own entry, as the CLI does, through either bin file', async () => {
    const { home } = await fleet()
    await settle()
    const run = (file: string, ...args: string[]): string => {
      const r = spawnSync(process.execPath, [file, ...args], { encoding: 'utf8' })
      expect(r.stderr).toBe('')
      expect(r.status).toBe(0)
      return r.stdout
    }
    const json = run(bin, 'status', '--json', '--home', home) // reads, keeps the cards
    expect(fromSnapshot('status', '--json', '--home', home)).toBe(json)
    expect(run(bin, '--home', home, 'status', '--json')).toBe(json)
    expect(run(bin.replace(/\.cjs$/, '.mjs'), 'status', '--json', '--home', home)).toBe(json)
    expect(run(bin, 'status', '--help')).toContain('--project <name>')
    const unknown = spawnSync(process.execPath, [bin, 'status', '--project', 'nope', '--home', home], { encoding: 'utf8' })
    expect([unknown.status, unknown.stdout, unknown.stderr]).toEqual([
      1,
      '',
      "muster: unknown project 'nope' (see: muster projects list)\n"
    ])
  }, 240_000)
})

describe('SNAPSHOT_FORMAT', () => {
  it('is bumped whenever a card changes for the same files (kept cards of the old form would be printed)', async () => {
    const root = tmpDir()
    const home = tmpDir()
    const long = `<!-- L0: v2.0.0 | ${'P0=很长的优先级 '.repeat(12)}| QA PASS -->\n`
    writeTree(root, {
      'p/.muse/build.md': role('build', 'v1.2.3') + '- [x] done\n📡 **S050→QA**: 🟡 **notice**\n',
      'p/.muse/gm.md': '# no L0 here\n' + 'line\n'.repeat(600),
      'p/.muse/qa.md': long + 'x\n'.repeat(900),
      'p/memory/2026-11-30.md': '# log\n',
      'p/memory/notes.md': 'n\n'
    })
    const service = await createService({ home, transport: 'http', watch: false })
    await service.call('projects.add', { path: join(root, 'p'), name: 'sample' })
    await service.close()
    const [status] = await fleetStatusAt(home)
    // the card without what varies from run to run (folders, times)
    const fixed = JSON.stringify(status, (k, v: unknown) => (['path', 'addedAt', 'modifiedAt', 'lastChangeAt'].includes(k) ? '-' : v))
    // When this hash changes, a card's JSON or text changed: bump SNAPSHOT_FORMAT in status-snapshot.ts
    // and write the new format and hash here.
    const hash = createHash('sha256').update(fixed).update(renderBody(status!)).digest('hex').slice(0, 16)
    expect({ format: SNAPSHOT_FORMAT, hash }).toEqual({ format: 1, hash: 'aeac4b60a182a7ec' })
  })
})
