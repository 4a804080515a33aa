/**
 * `muster patch verify` answered by its CommonJS fast entry (bin/muster.cjs hands it a plain call)
 * prints, exits and records exactly as the CLI does; a call it does not read as plain goes to the
 * CLI. The real binary is built and run against a real hub and repository.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { builtCli } from '../../test/helpers/built-cli'
import { makePatch, patchWorld, type PatchWorld } from '../../test/helpers/patch-setup'
import { parsePatchVerifyArgv } from './commands/patch-verify-flags'
import { runCli } from './index'

const bin = builtCli()
let w: PatchWorld | undefined
afterEach(async () => {
  await w?.close()
  w = undefined
})

/** The binary's answer. */
function viaBin(args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { ...process.env, MUSTER_HOME: '' }, timeout: 60_000 })
  return { code: r.status, out: r.stdout, err: r.stderr }
}

/** The CLI's answer, in process. */
async function viaCli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = ''
  let err = ''
  const code = await runCli(args, { stdout: (t) => (out += t), stderr: (t) => (err += t), env: {}, cwd: process.cwd() })
  return { code, out, err }
}

/** `checked_at` differs from run to run. */
const untimed = (json: string): unknown => JSON.parse(json.replace(/"checked_at": "[^"]+"/g, '"checked_at": "-"'))

describe('patch verify fast path', () => {
  it('verified, refused, unknown and --json answers are the CLI’s, with its exit codes', async () => {
    w = await patchWorld()
    const ok = await w.submit(await makePatch(w.repo, { 'src/app.txt': 'alpha\nBETA\ngamma\ndelta\n' }))
    const patch = await makePatch(w.repo, { 'src/app.txt': 'alpha\nbeta\nGAMMA\ndelta\n' })
    const bad = await w.submit(patch)
    w.tamper((await w.hubs.get({ palace: w.palace, id: bad })).event.artifact_ids[0]!, patch.replace('+GAMMA', '+GAMMA!'))
    const where = ['--home', w.home, '--palace', w.palace]
    for (const args of [
      ['patch', 'verify', ok, ...where],
      ['patch', 'verify', bad, ...where],
      ['patch', 'verify', 'evt_missing', ...where],
      ['--json', 'patch', 'verify', 'evt_missing', ...where]
    ]) {
      const fast = viaBin(args)
      expect(fast, args.join(' ')).toEqual(await viaCli(args))
    }
    expect(viaBin(['patch', 'verify', bad, ...where]).code).toBe(1)
    // every verify is recorded in the audit, the fast path's too (it exits as soon as it answered)
    const audits = (): number => w!.patches.store.auditOf(w!.palace, { event_id: ok }).filter((a) => a.action === 'verify').length
    const before = audits()
    expect(viaBin(['patch', 'verify', ok, ...where]).code).toBe(0)
    expect(audits()).toBe(before + 1)
    const json = ['--json', 'patch', 'verify', ok, ...where]
    const fast = viaBin(json)
    const cli = await viaCli(json)
    expect([fast.code, fast.err]).toEqual([cli.code, cli.err])
    expect(untimed(fast.out)).toEqual(untimed(cli.out))
  })

  it("loads only its entry and the root's hub-side part: no CLI, keys, approvals, service or remote hub", async () => {
    w = await patchWorld()
    const ok = await w.submit(await makePatch(w.repo, { 'src/app.txt': 'alpha\nBETA\ngamma\ndelta\n' }))
    const dir = mkdtempSync(join(tmpdir(), 'muster-verify-loads-'))
    try {
      // a preload that writes, at exit, every CommonJS file the process required
      const preload = join(dir, 'loads.cjs')
      const list = join(dir, 'loaded.json')
      writeFileSync(
        preload,
        `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, JSON.stringify(Object.keys(require.cache))))`
      )
      const r = spawnSync(process.execPath, ['--require', preload, bin, 'patch', 'verify', ok, '--home', w.home, '--palace', w.palace], {
        encoding: 'utf8',
        env: { ...process.env, MUSTER_HOME: '' },
        timeout: 60_000
      })
      expect([r.status, r.stderr]).toEqual([0, ''])
      const bundles = (JSON.parse(readFileSync(list, 'utf8')) as string[]).filter((f) => f.includes('out')).map((f) => basename(f))
      expect(bundles.filter((f) => /\.(cjs|mjs)$/.test(f) && f !== 'muster.cjs' && f !== 'loads.cjs').sort()).toEqual([
        'lazy-hub-parts.cjs',
        'patch-verify.cjs'
      ])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('help and unknown flags go to the CLI', () => {
    const help = viaBin(['patch', 'verify', '--help'])
    expect(help.code).toBe(0)
    expect(help.out).toMatch(/^Usage: muster patch verify \[options\] <id>/)
    const unknown = viaBin(['patch', 'verify', 'x', '--bogus'])
    expect(unknown.code).toBe(1)
    expect(unknown.err).toMatch(/unknown option '--bogus'/)
  })
})

describe('parsePatchVerifyArgv', () => {
  it('reads the plain forms, global options anywhere', () => {
    expect(parsePatchVerifyArgv(['patch', 'verify', 'evt_1'])).toEqual({ id: 'evt_1', json: false })
    expect(parsePatchVerifyArgv(['--home', '/h', 'patch', '--json', 'verify', 'evt_1', '--hub=fleet', '--project', 'atlas'])).toEqual({
      id: 'evt_1',
      json: true,
      home: '/h',
      hub: 'fleet',
      project: 'atlas'
    })
    expect(parsePatchVerifyArgv(['patch', 'verify', 'evt_1', '--palace=/p'])).toEqual({ id: 'evt_1', json: false, palace: '/p' })
  })

  it('leaves anything else to the CLI', () => {
    for (const argv of [
      ['patch', 'verify'],
      ['patch', 'verify', 'a', 'b'],
      ['patch', 'list'],
      ['patch', 'verify', 'a', '--help'],
      ['patch', 'verify', 'a', '-h'],
      ['patch', '--hub', 'x', 'verify', 'a'],
      ['patch', 'verify', 'a', '--hub'],
      ['patch', 'verify', 'a', '--hub', '--json'],
      ['patch', 'verify', 'a', '--home='],
      ['patch', 'verify', 'a', '--'],
      ['status']
    ])
      expect(parsePatchVerifyArgv(argv), argv.join(' ')).toBeNull()
  })
})
