#!/usr/bin/env node
/**
 * Builds better-sqlite3 for Electron's ABI into `.electron-native/<electron version>/better_sqlite3.node`
 * (gitignored), leaving node_modules' Node build alone so tests, the CLI and `muster serve` keep
 * working. The Electron main process loads this file through better-sqlite3's `nativeBinding`.
 *
 * It works on a temporary copy of node_modules/better-sqlite3: first a prebuilt binary
 * (prebuild-install --runtime electron), else a source build against Electron's headers (npm's
 * node-gyp). Skips when the output already exists for this platform/arch. Nothing is written to
 * `.electron-native` unless a build succeeded; the final file appears by an atomic rename.
 *
 * With --cli it builds, the same way, the addons of the `muster` command shipped inside the
 * installers: one per supported Node line, into `.cli-native/node-v<abi>-<platform>-<arch>/`.
 *
 * Usage: node scripts/prepare-electron-native.mjs [--cli] [--force] [--verbose] [--print-path]
 */
import { spawn } from 'node:child_process'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  copyFileSync
} from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const NATIVE_DIR = '.electron-native' // keep in step with src/main/native-binding.ts
const NATIVE_FILE = 'better_sqlite3.node'
const PREBUILD_TIMEOUT_MS = 3 * 60_000
const SOURCE_BUILD_TIMEOUT_MS = 20 * 60_000

/** An error whose message is the one paragraph shown to the user. */
export class PrepareError extends Error {
  constructor(message) {
    super(message)
    this.name = 'PrepareError'
  }
}

/** The installed Electron version (from node_modules/electron/package.json). */
export function electronVersion(root = ROOT) {
  const file = join(root, 'node_modules', 'electron', 'package.json')
  try {
    const { version } = JSON.parse(readFileSync(file, 'utf8'))
    if (typeof version === 'string' && /^\d+\.\d+\.\d+/.test(version)) return version
  } catch {
    // reported below
  }
  throw new PrepareError(`Electron is not installed (${file} is missing or unreadable). Run \`npm install\` first.`)
}

/** Where the Electron build of the addon goes. */
export function nativeOutputPath(root, version) {
  return join(root, NATIVE_DIR, version, NATIVE_FILE)
}

/** True when an existing build matches this platform and architecture. */
function isUpToDate(outFile, platform, arch) {
  if (!existsSync(outFile) || statSync(outFile).size === 0) return false
  try {
    const info = JSON.parse(readFileSync(join(dirname(outFile), 'build-info.json'), 'utf8'))
    return info.platform === platform && info.arch === arch
  } catch {
    return true // built by hand without build-info: trust it
  }
}

/** Runs `node <script> ...args` in `cwd`; resolves { code, output } (output = last lines of both streams). */
function runNode(script, args, { cwd, timeoutMs, verbose, env }) {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [script, ...args], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    const collect = (chunk) => {
      const text = chunk.toString()
      if (verbose) process.stderr.write(text)
      output = (output + text).slice(-20_000)
    }
    child.stdout.on('data', collect)
    child.stderr.on('data', collect)
    const timer = setTimeout(() => {
      output += `\n(timed out after ${Math.round(timeoutMs / 1000)} s)`
      child.kill()
    }, timeoutMs)
    child.on('error', (err) => {
      clearTimeout(timer)
      resolvePromise({ code: 1, output: `${output}\n${err.message}` })
    })
    child.on('close', (code) => {
      clearTimeout(timer)
      resolvePromise({ code: code ?? 1, output })
    })
  })
}

/** The most telling line of a failed tool's output, for the one-paragraph error. */
export function firstErrorLine(output) {
  const lines = output
    .split(/\r?\n/)
    // eslint-disable-next-line no-control-regex -- strips ANSI colour codes (ESC [ ... m)
    .map((l) => l.replace(/\u001b\[[0-9;]*m/g, '').trim())
    .filter(Boolean)
  const pick = (re) => lines.find((l) => re.test(l))
  let line = pick(/ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ECONNRESET|getaddrinfo|timed out/i)
  if (!line && lines.some((l) => /network connectivity/i.test(l))) {
    // node-gyp hides the cause behind a stack; name what it was downloading instead.
    const url = pick(/\bhttp GET\b/)
      ?.split(/\s+/)
      .pop()
    line = `network error downloading ${url ?? 'Electron headers'}`
  }
  if (!line && lines.some((l) => /fetch failed/i.test(l))) line = 'could not reach the download server: fetch failed'
  line ??= pick(/\b404\b|not found/i) ?? pick(/ERR!(?! stack)|error/i) ?? lines.at(-1) ?? 'no output'
  return line.length > 200 ? `${line.slice(0, 200)}…` : line
}

/** Finds node-gyp: the one npm ships, or a local one. */
function findNodeGyp(root) {
  const candidates = []
  if (process.env.npm_config_node_gyp) candidates.push(process.env.npm_config_node_gyp)
  if (process.env.npm_execpath)
    candidates.push(join(dirname(process.env.npm_execpath), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'))
  candidates.push(join(root, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'))
  const nodeDir = dirname(process.execPath)
  candidates.push(join(nodeDir, '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'))
  candidates.push(join(nodeDir, 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js')) // Windows layout
  return candidates.find((c) => c.endsWith('.js') && existsSync(c))
}

/**
 * Builds better-sqlite3 for one runtime into `outFile`: a prebuilt binary first, else a source
 * build. Works on a private copy of the package, so node_modules is never touched; the file
 * appears by an atomic rename only when a build succeeded. Returns the method that worked.
 */
async function buildAddon({ root, runtime, target, platform, arch, outFile, verbose, log }) {
  const label = `${runtime === 'electron' ? 'Electron' : 'Node.js'} ${target} (${platform}-${arch})`
  const source = join(root, 'node_modules', 'better-sqlite3')
  if (!existsSync(join(source, 'package.json'))) {
    throw new PrepareError(`better-sqlite3 is not installed (${source}). Run \`npm install\` first.`)
  }

  log(`Preparing the SQLite addon for ${label}…`)
  const work = mkdtempSync(join(tmpdir(), 'muster-native-'))
  try {
    const pkgDir = join(work, 'better-sqlite3')
    // A private copy without the Node build, so node_modules is never touched.
    cpSync(source, pkgDir, { recursive: true, filter: (src) => !src.startsWith(join(source, 'build')) })
    const built = join(pkgDir, 'build', 'Release', NATIVE_FILE)

    let method = 'prebuild-install'
    const prebuild = join(root, 'node_modules', 'prebuild-install', 'bin.js')
    let prebuildProblem = 'prebuild-install is not installed'
    if (existsSync(prebuild)) {
      log('  trying a prebuilt binary (prebuild-install)…')
      const r = await runNode(prebuild, ['--runtime', runtime, '--target', target, '--arch', arch, '--platform', platform, '--verbose'], {
        cwd: pkgDir,
        timeoutMs: PREBUILD_TIMEOUT_MS,
        verbose
      })
      prebuildProblem = r.code === 0 && existsSync(built) ? '' : firstErrorLine(r.output)
    }

    if (prebuildProblem) {
      method = 'node-gyp'
      const nodeGyp = findNodeGyp(root)
      if (!nodeGyp) {
        throw new PrepareError(
          `Could not prepare the SQLite addon for ${label}: no prebuilt binary could be downloaded (${prebuildProblem}) and node-gyp was not found to build it from source. ` +
            "Node's own build in node_modules is untouched, so `npm test` and `npm run serve` still work."
        )
      }
      log(`  no prebuilt binary; building from source against the ${runtime === 'electron' ? 'Electron' : 'Node.js'} headers (node-gyp)…`)
      const headers = runtime === 'electron' ? ['--dist-url=https://electronjs.org/headers', '--runtime=electron'] : []
      const r = await runNode(nodeGyp, ['rebuild', '--release', `--target=${target}`, `--arch=${arch}`, ...headers], {
        cwd: pkgDir,
        timeoutMs: SOURCE_BUILD_TIMEOUT_MS,
        verbose,
        env: { npm_config_runtime: runtime, npm_config_target: target }
      })
      if (r.code !== 0 || !existsSync(built)) {
        throw new PrepareError(
          `Could not prepare the SQLite addon for ${label}: no prebuilt binary could be downloaded (${prebuildProblem}) and building it from source failed (${firstErrorLine(r.output)}). ` +
            `This step needs network access to github.com (prebuilt binaries) or ${runtime === 'electron' ? 'electronjs.org' : 'nodejs.org'} (headers, plus Python and a C++ toolchain). ` +
            "Node's own build in node_modules is untouched, so `npm test` and `npm run serve` still work; rerun (add --verbose for the full log) once online."
        )
      }
    }

    // Publish atomically: copy next to the target, then rename over it.
    mkdirSync(dirname(outFile), { recursive: true })
    const tmpOut = `${outFile}.${process.pid}.tmp`
    try {
      copyFileSync(built, tmpOut)
      renameSync(tmpOut, outFile)
    } finally {
      rmSync(tmpOut, { force: true })
    }
    const info = { [runtime]: target, platform, arch, method, builtAt: new Date().toISOString() }
    writeFileSync(join(dirname(outFile), 'build-info.json'), `${JSON.stringify(info, null, 2)}\n`)
    log(`  done: ${outFile}`)
    return method
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

/**
 * Makes sure the Electron build exists; returns { path, skipped, method }. Throws PrepareError with
 * a one-paragraph message when it cannot.
 */
export async function prepareElectronNative({ root = ROOT, force = false, verbose = false, log = (m) => console.log(m) } = {}) {
  const version = electronVersion(root)
  const platform = process.platform
  const arch = process.env.npm_config_arch || process.arch
  const outFile = nativeOutputPath(root, version)
  if (!force && isUpToDate(outFile, platform, arch)) return { path: outFile, skipped: true, method: 'existing' }
  const method = await buildAddon({ root, runtime: 'electron', target: version, platform, arch, outFile, verbose, log })
  return { path: outFile, skipped: false, method }
}

/** The Node.js lines the installed CLI runs on (package.json `engines`), as header versions to build against. */
export const CLI_NODE_TARGETS = ['22.12.0', '24.0.0']

/** Folder (gitignored) of the CLI's addons, one per Node ABI; packaged as `resources/cli/native`. */
export const CLI_NATIVE_DIR = '.cli-native'

/** The folder name of one Node ABI's addon; `bin/muster.cjs` looks for the same name. */
export function cliNativeName(abi, platform = process.platform, arch = process.arch) {
  return `node-v${abi}-${platform}-${arch}`
}

/**
 * Builds the addon for each Node line the installed CLI supports (the desktop app's `muster`
 * command runs on the user's Node, since the app's own binary cannot run scripts: RunAsNode is off).
 */
export async function prepareCliNative({ root = ROOT, force = false, verbose = false, log = (m) => console.log(m) } = {}) {
  const { getAbi } = createRequire(join(root, 'package.json'))('node-abi')
  const platform = process.platform
  const arch = process.env.npm_config_arch || process.arch
  const paths = []
  for (const target of CLI_NODE_TARGETS) {
    const outFile = join(root, CLI_NATIVE_DIR, cliNativeName(getAbi(target, 'node'), platform, arch), NATIVE_FILE)
    if (force || !isUpToDate(outFile, platform, arch))
      await buildAddon({ root, runtime: 'node', target, platform, arch, outFile, verbose, log })
    paths.push(outFile)
  }
  return paths
}

async function main(argv) {
  if (argv.includes('--print-path')) {
    console.log(nativeOutputPath(ROOT, electronVersion(ROOT)))
    return 0
  }
  if (process.env.MUSTER_SQLITE_BINDING) {
    console.log(`MUSTER_SQLITE_BINDING is set (${process.env.MUSTER_SQLITE_BINDING}); nothing to prepare.`)
    return 0
  }
  if (argv.includes('--cli')) {
    for (const path of await prepareCliNative({ force: argv.includes('--force'), verbose: argv.includes('--verbose') }))
      console.log(`CLI addon: ${path}`)
    return 0
  }
  const result = await prepareElectronNative({ force: argv.includes('--force'), verbose: argv.includes('--verbose') })
  if (result.skipped) console.log(`SQLite addon for Electron is up to date: ${result.path}`)
  return 0
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      console.error(err instanceof PrepareError ? `\n${err.message}\n` : err)
      process.exit(1)
    }
  )
}
