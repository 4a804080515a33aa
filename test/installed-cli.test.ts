/**
 * The `muster` command line as the installers ship it: the files laid out where
 * electron-builder.config.mjs's `extraResources` puts them (resources/cli), with no node_modules
 * anywhere, run through the launcher by a symbolic link (as /usr/bin/muster links it). It must
 * find its SQLite addon in cli/native for this Node and its rules template, and say in one line
 * when this Node is not one it was built for.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)))
const { extraResourceTarget } = (await import(pathToFileURL(join(ROOT, 'scripts/check-packaging.mjs')).href)) as {
  extraResourceTarget(config: unknown, path: string): string | null
}
const config = ((await import(pathToFileURL(join(ROOT, 'electron-builder.config.mjs')).href)) as { default: unknown }).default
const ADDON = join(ROOT, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node')
const ready = process.platform !== 'win32' && existsSync(join(ROOT, 'out/cli/muster.cjs')) && existsSync(ADDON)

function files(dir: string): string[] {
  const out: string[] = []
  for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${e.name}`
    if (e.isDirectory()) out.push(...files(rel))
    else out.push(rel)
  }
  return out
}

let dir: string
let resources: string
let cli: string

beforeAll(() => {
  if (!ready) return
  dir = mkdtempSync(join(tmpdir(), 'muster-installed-cli-'))
  resources = join(dir, 'opt', 'Muster', 'resources')
  const place = (from: string, source = join(ROOT, from)): void => {
    const to = extraResourceTarget(config, from)
    if (!to) return
    const target = join(resources, ...to.split('/'))
    mkdirSync(dirname(target), { recursive: true })
    copyFileSync(source, target)
    if (statSync(source).mode & 0o111) execFileSync('chmod', ['+x', target])
  }
  const koffi = existsSync(join(ROOT, 'node_modules/@koromix')) ? [...files('node_modules/koffi'), ...files('node_modules/@koromix')] : []
  for (const f of [
    ...files('out/cli'),
    'bin/muster.cjs',
    'resources/cli/muster',
    'resources/cli/muster.cmd',
    ...files('resources/rules'),
    ...koffi
  ])
    place(f)
  // the addon for this Node, named as scripts/prepare-electron-native.mjs --cli names it
  place(`.cli-native/node-v${process.versions.modules}-${process.platform}-${process.arch}/better_sqlite3.node`, ADDON)
  cli = join(dir, 'usr-bin-muster')
  symlinkSync(join(resources, 'cli', 'muster'), cli)
})

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe.skipIf(!ready)('the command line installed with the app', () => {
  it('is laid out without node_modules', () => {
    expect(existsSync(join(resources, 'cli', 'out', 'cli', 'muster.cjs'))).toBe(true)
    expect(relative(ROOT, resources).startsWith('..')).toBe(true)
    expect(existsSync(join(dir, 'node_modules'))).toBe(false)
  })

  it.skipIf(process.platform !== 'linux' && process.platform !== 'darwin')(
    "finds koffi beside it (role-file edits' atomic exchange), loaded as the bundle loads it",
    () => {
      const probe = `const r = require('node:module').createRequire(${JSON.stringify(join(resources, 'cli', 'out', 'cli', 'muster.cjs'))}); process.stdout.write(r.resolve('koffi') + ' ' + typeof r('koffi').load)`
      const out = execFileSync(process.execPath, ['-e', probe], { encoding: 'utf8' })
      expect(out).toBe(`${join(resources, 'cli', 'node_modules', 'koffi', 'index.cjs')} function`)
    }
  )

  it('runs through its launcher by a link, with its own SQLite addon and rules template', () => {
    const home = join(dir, 'home')
    const env = { ...process.env, MUSTER_HOME: '', MUSTER_SQLITE_BINDING: '' }
    const list = JSON.parse(execFileSync(cli, ['--home', home, 'projects', 'list', '--json'], { encoding: 'utf8', env })) as {
      count: number
    }
    expect(list.count).toBe(0)
    expect(existsSync(home)).toBe(true)
    const rules = execFileSync(cli, ['--home', home, 'rules', '--agent', 'mac-claude'], { encoding: 'utf8', env })
    expect(rules).toContain('mac-claude')
    expect(rules).toContain('mempalace-shared-brain')
  })

  it('says in one line when this Node is not one it was built for', () => {
    const native = join(resources, 'cli', 'native')
    const moved = `${native}.away`
    execFileSync('mv', [native, moved])
    mkdirSync(native)
    try {
      const r = spawnSync(cli, ['projects', 'list'], { encoding: 'utf8', env: { ...process.env, MUSTER_SQLITE_BINDING: '' } })
      expect(r.status).toBe(1)
      expect(r.stdout).toBe('')
      expect(r.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(/^muster: this command line runs on Node\.js 22 or 24 \(LTS\); .* is Node\.js v\d+/)
      ])
    } finally {
      rmSync(native, { recursive: true })
      execFileSync('mv', [moved, native])
    }
  })
})
