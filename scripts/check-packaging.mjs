#!/usr/bin/env node
/**
 * Checks the packaging configuration (electron-builder.config.mjs) without building anything: the
 * fuses, the Electron-ABI SQLite addon unpacked from the asar, every entry of the build inside the
 * app or beside it, the four installer targets, icons, the muster:// scheme, the CLI's launchers
 * and addons, and `engines` agreeing with the Node lines the CLI is built for. Part of
 * `npm run lint`; `npm run dist` runs it too, and with `--built` also against the files in out/.
 *
 * Usage: node scripts/check-packaging.mjs [--built]
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/** The fuses as they must be: what the README promises. */
export const REQUIRED_FUSES = {
  runAsNode: false,
  enableCookieEncryption: true,
  enableNodeOptionsEnvironmentVariable: false,
  enableNodeCliInspectArguments: false,
  enableEmbeddedAsarIntegrityValidation: true,
  onlyLoadAppFromAsar: true,
  grantFileProtocolExtraPrivileges: false
}

/** Files of the build that must be inside app.asar (the entries: main, its worker, preload, page). */
export const APP_ENTRIES = [
  'out/main/index.js',
  'out/main/digest-worker.js',
  'out/main/gate-health-worker.js',
  'out/preload/index.cjs',
  'out/renderer/index.html'
]

/** Files of the CLI bundle that must ship beside the app (its entries). */
export const CLI_ENTRIES = [
  'out/cli/muster.cjs',
  'out/cli/cli-output.cjs',
  'out/cli/approve-hook.cjs',
  'out/cli/digest-worker.mjs',
  'out/cli/gate-health-worker.mjs',
  'out/cli/session-worker.mjs',
  'out/cli/status.cjs',
  'out/cli/session-hook.cjs'
]

/** Source files the packaged app or CLI need at run time. */
const SOURCES = ['package.json', 'bin/muster.cjs', 'resources/cli/muster', 'resources/cli/muster.cmd', 'resources/rules/shared-brain.md']

/** A glob of electron-builder's kind (`**`, `*`, `{a,b}`) as a regular expression over `/` paths. */
export function globToRegExp(glob) {
  let re = ''
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]
    if (c === '*' && glob[i + 1] === '*') {
      // `**/` matches any folders (also none), `**` at the end anything
      if (glob[i + 2] === '/') {
        re += '(?:.*/)?'
        i += 2
      } else {
        re += '.*'
        i += 1
      }
    } else if (c === '*') re += '[^/]*'
    else if (c === '?') re += '[^/]'
    else if (c === '{') {
      const end = glob.indexOf('}', i)
      re += `(?:${glob
        .slice(i + 1, end)
        .split(',')
        .map((alt) => alt.replace(/[.+^$()|[\]\\]/g, '\\$&'))
        .join('|')})`
      i = end
    } else re += c.replace(/[.+^$()|[\]\\/]/g, '\\$&')
  }
  return new RegExp(`^${re}$`)
}

/** True when `path` (relative, `/`-separated) is selected by electron-builder `patterns` (later ones win, `!` excludes). */
export function selectedBy(patterns, path) {
  let selected = false
  for (const p of patterns) {
    const negated = p.startsWith('!')
    const glob = negated ? p.slice(1) : p
    // a folder pattern also selects what is inside it
    if (globToRegExp(glob).test(path) || globToRegExp(`${glob.replace(/\/$/, '')}/**`).test(path)) selected = !negated
  }
  return selected
}

/** The copies `extraResources` makes, as { from, to, filter } with defaults. */
function extraCopies(config) {
  return (config.extraResources ?? []).map((e) =>
    typeof e === 'string' ? { from: e, to: e, filter: ['**/*'] } : { filter: ['**/*'], ...e }
  )
}

/** Where `path` (relative to the repository) lands among the extra resources, or null. */
export function extraResourceTarget(config, path) {
  for (const { from, to, filter } of extraCopies(config)) {
    if (path === from) return to
    if (path.startsWith(`${from}/`)) {
      const inner = path.slice(from.length + 1)
      if (selectedBy(filter, inner)) return `${to}/${inner}`
    }
  }
  return null
}

/** Width and height of a PNG file, or null. */
function pngSize(file) {
  try {
    const head = readFileSync(file).subarray(0, 24)
    if (head.toString('latin1', 1, 4) !== 'PNG') return null
    return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) }
  } catch {
    return null
  }
}

/** Every file under `dir`, relative to `root` with `/` separators. */
function filesUnder(root, dir) {
  const out = []
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, entry.name)
      if (entry.isDirectory()) walk(full)
      else out.push(relative(root, full).split(sep).join('/'))
    }
  }
  if (existsSync(join(root, dir))) walk(join(root, dir))
  return out
}

/** Loads the configuration module (its default export and named exports). */
export async function loadPackagingConfig(root = ROOT) {
  return import(pathToFileURL(join(root, 'electron-builder.config.mjs')).href)
}

/**
 * The problems of the packaging configuration (empty when all is well). `built`: also check the
 * build in out/ (every file of it inside the app or beside it). `config` replaces the file's.
 */
export async function checkPackaging({ root = ROOT, built = false, config } = {}) {
  const mod = config ? { default: config } : await loadPackagingConfig(root)
  const cfg = mod.default
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  const problems = []
  const need = (ok, message) => {
    if (!ok) problems.push(message)
  }

  // identity
  need(typeof cfg.appId === 'string' && /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(cfg.appId), `appId must be a reverse-DNS id (is ${cfg.appId})`)
  need(cfg.productName === 'Muster', `productName must be Muster (is ${cfg.productName})`)
  need(pkg.build === undefined, 'package.json has a "build" key: electron-builder would read two configurations')

  // fuses
  const fuses = cfg.electronFuses ?? {}
  for (const [fuse, value] of Object.entries(REQUIRED_FUSES)) {
    need(
      fuses[fuse] === value,
      `fuse ${fuse} must be ${value ? 'on' : 'off'} (is ${fuses[fuse] === undefined ? 'unset' : fuses[fuse] ? 'on' : 'off'})`
    )
  }
  need(cfg.asar !== false, 'asar must stay on: the integrity and only-load-from-asar fuses need app.asar')
  need(cfg.asar?.disableIntegrity !== true, 'asar.disableIntegrity would leave the integrity fuse nothing to check')

  // the native addon
  const electronAddon = '.electron-native/45.0.0/better_sqlite3.node'
  need(selectedBy(cfg.files ?? [], electronAddon), 'files must include the Electron-ABI SQLite addon (.electron-native/**)')
  need(
    (cfg.asarUnpack ?? []).some((p) => selectedBy([p], electronAddon)),
    'asarUnpack must unpack the Electron-ABI SQLite addon (native code cannot load from an asar)'
  )
  need(
    cfg.npmRebuild === false,
    'npmRebuild must be off: it would rebuild node_modules/better-sqlite3 for Electron in place, breaking the tests and the CLI'
  )
  need(
    !selectedBy(cfg.files ?? [], 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'),
    "files must leave out node_modules' Node-ABI build of better-sqlite3"
  )

  // koffi (the role-file edits' atomic exchange): its addon unpacked for the app, beside the CLI
  need(
    (cfg.asarUnpack ?? []).some((p) => selectedBy([p], 'node_modules/@koromix/koffi-linux-x64/linux_x64/koffi.node')),
    "asarUnpack must unpack koffi's addon (node_modules/@koromix/**)"
  )
  need(
    extraResourceTarget(cfg, 'node_modules/koffi/index.cjs') === 'cli/node_modules/koffi/index.cjs' &&
      extraResourceTarget(cfg, 'node_modules/koffi/src/koffi/index.cjs') === 'cli/node_modules/koffi/src/koffi/index.cjs' &&
      extraResourceTarget(cfg, 'node_modules/@koromix/koffi-linux-x64/linux_x64/koffi.node') ===
        'cli/node_modules/@koromix/koffi-linux-x64/linux_x64/koffi.node',
    'extraResources must put koffi and its addon in cli/node_modules (the CLI requires it at run time)'
  )

  // entries and what they read at run time
  const mainEntry = pkg.main ?? 'index.js'
  need(APP_ENTRIES.includes(mainEntry), `package.json main (${mainEntry}) is not one of the app's entries`)
  for (const entry of [...APP_ENTRIES, 'resources/rules/shared-brain.md', 'package.json']) {
    need(selectedBy(cfg.files ?? [], entry), `files must include ${entry}`)
  }
  for (const entry of CLI_ENTRIES)
    need(extraResourceTarget(cfg, entry)?.startsWith('cli/out/cli/'), `extraResources must put ${entry} in cli/out/cli`)
  need(
    extraResourceTarget(cfg, 'bin/muster.cjs') === 'cli/bin/muster.cjs',
    'extraResources must put bin/muster.cjs in cli/bin (it runs ../out/cli)'
  )
  need(extraResourceTarget(cfg, 'resources/cli/muster') === 'cli/muster', 'extraResources must put the muster launcher in cli/')
  need(extraResourceTarget(cfg, 'resources/cli/muster.cmd') === 'cli/muster.cmd', 'extraResources must put muster.cmd in cli/')
  need(
    extraResourceTarget(cfg, 'resources/rules/shared-brain.md') === 'cli/resources/rules/shared-brain.md',
    'extraResources must put the rules template in cli/resources/rules (the CLI finds it walking up)'
  )
  need(
    extraResourceTarget(cfg, '.cli-native/node-v127-linux-x64/better_sqlite3.node') ===
      'cli/native/node-v127-linux-x64/better_sqlite3.node',
    "extraResources must put the CLI's addons in cli/native (bin/muster.cjs looks there)"
  )
  for (const icon of ['tray.png', 'trayTemplate.png', 'overlay.png']) {
    need(extraResourceTarget(cfg, `resources/tray/${icon}`) === `tray/${icon}`, `extraResources must put resources/tray/${icon} in tray/`)
  }
  need(extraResourceTarget(cfg, 'resources/icon.png') === 'icon.png', 'extraResources must put the window icon beside the app')
  for (const file of SOURCES) need(existsSync(join(root, file)), `${file} is missing`)
  if (process.platform !== 'win32' && existsSync(join(root, 'resources/cli/muster'))) {
    need((statSync(join(root, 'resources/cli/muster')).mode & 0o111) !== 0, 'resources/cli/muster must be executable')
  }

  // targets, icons, links
  const targets = (os) => (cfg[os]?.target ?? []).map((t) => (typeof t === 'string' ? t : t.target))
  need(
    ['AppImage', 'deb'].every((t) => targets('linux').includes(t)),
    'linux targets must be AppImage and deb'
  )
  need(targets('mac').includes('dmg'), 'the mac target must be dmg')
  need(targets('win').includes('nsis'), 'the Windows target must be nsis')
  for (const os of ['mac', 'win', 'linux']) {
    const icon = cfg[os]?.icon
    const size = icon ? pngSize(join(root, icon)) : null
    need(
      size !== null && size.width >= 512 && size.height === size.width,
      `${os}.icon must be a square PNG of at least 512 px (${icon ?? 'unset'})`
    )
  }
  need(
    cfg.linux?.executableName && cfg.linux.executableName !== 'muster',
    'linux.executableName must not be muster: that is the command line'
  )
  need(
    (cfg.protocols ?? []).some((p) => (p.schemes ?? []).includes('muster')),
    'protocols must register the muster:// scheme'
  )
  for (const key of ['afterInstall', 'afterRemove']) need(typeof cfg.deb?.[key] === 'string', `deb.${key} must link the command line`)

  // Node lines: engines names exactly the lines the CLI's addons are built for
  const { CLI_NODE_TARGETS } = await import(pathToFileURL(join(root, 'scripts', 'prepare-electron-native.mjs')).href)
  const majors = CLI_NODE_TARGETS.map((v) => v.split('.')[0])
  const engineMajors = [...String(pkg.engines?.node ?? '').matchAll(/\^(\d+)\./g)].map((m) => m[1])
  need(
    engineMajors.length > 0 && engineMajors.join(',') === majors.join(','),
    `engines.node (${pkg.engines?.node}) must name the Node lines the CLI is built for (${majors.join(', ')})`
  )

  if (built) {
    for (const entry of [...APP_ENTRIES, ...CLI_ENTRIES]) need(existsSync(join(root, entry)), `${entry} was not built`)
    // every file of the build ships: the app's inside app.asar, the CLI's beside it
    for (const file of [...filesUnder(root, 'out/main'), ...filesUnder(root, 'out/preload'), ...filesUnder(root, 'out/renderer')]) {
      if (!file.endsWith('.map')) need(selectedBy(cfg.files ?? [], file), `${file} would be left out of the app`)
    }
    for (const file of filesUnder(root, 'out/cli')) {
      if (!file.endsWith('meta.json')) need(extraResourceTarget(cfg, file) !== null, `${file} would be left out of the CLI`)
    }
  }
  return problems
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const problems = await checkPackaging({ built: process.argv.includes('--built') })
  if (problems.length) {
    for (const p of problems) console.error(`packaging: ${p}`)
    process.exit(1)
  }
  console.log('packaging configuration: ok')
}
