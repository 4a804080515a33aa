#!/usr/bin/env node
/**
 * `npm run dist`: builds Muster's installers with electron-builder (electron-builder.config.mjs)
 * for this OS: AppImage + deb on Linux, dmg on macOS, NSIS on Windows. `npm run dist -- --dir`
 * stops at the unpacked app (dist/<os>-unpacked), which is quicker to try.
 *
 * Steps, each stopping with one line and a non-zero exit:
 *   1. the Electron binary (downloaded once when missing, as `npm start` does); checked first,
 *      so a machine that cannot get it stops before anything is built or written
 *   2. the static check of the packaging configuration (scripts/check-packaging.mjs)
 *   3. the build (electron-vite + the CLI bundle)
 *   4. the SQLite addon for Electron's ABI, and for each Node line the bundled CLI runs on
 *   5. electron-builder, with that Electron binary and the fuses flipped
 *
 * Usage: node scripts/dist.mjs [--dir] [other electron-builder arguments, e.g. --x64 --arm64]
 */
import { spawn } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ElectronMissing, ensureElectronBinary } from './electron-binary.mjs'
import { checkPackaging } from './check-packaging.mjs'
import { prepareCliNative, prepareElectronNative, PrepareError } from './prepare-electron-native.mjs'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/** A failure told in one line. */
class DistError extends Error {}

/** Runs a command with inherited output; resolves its exit code. */
function run(command, args, { shell = false } = {}) {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit', shell })
    child.on('error', () => done(1))
    child.on('close', (code, signal) => done(code ?? (signal ? 1 : 0)))
  })
}

/**
 * The deb's maintainer scripts: electron-builder's own templates (the /usr/bin link of the app,
 * the sandbox helper, the desktop database, AppArmor) plus the `muster` command line's link.
 */
function writeLinuxScripts() {
  const templates = join(dirname(createRequire(join(ROOT, 'package.json')).resolve('app-builder-lib/package.json')), 'templates', 'linux')
  const out = join(ROOT, 'out', 'packaging')
  mkdirSync(out, { recursive: true })
  const install = readFileSync(join(templates, 'after-install.tpl'), 'utf8')
  const remove = readFileSync(join(templates, 'after-remove.tpl'), 'utf8')
  const cli = "'/opt/${sanitizedProductName}/resources/cli/muster'"
  writeFileSync(
    join(out, 'after-install.tpl'),
    `${install.trimEnd()}\n\n# Muster: the command line on PATH\nln -sf ${cli} '/usr/bin/muster'\n`
  )
  writeFileSync(
    join(out, 'after-remove.tpl'),
    `${remove.trimEnd()}\n\n# Muster: the command line's link, if it is still ours\nif [ "$(readlink '/usr/bin/muster')" = ${cli} ]; then rm -f '/usr/bin/muster'; fi\n`
  )
}

async function main(args) {
  // 1. the Electron binary, before anything is written
  let electron
  try {
    electron = await ensureElectronBinary({ root: ROOT, log: () => {} })
  } catch (err) {
    if (err instanceof ElectronMissing) {
      throw new DistError(
        `npm run dist: ${err.message}; nothing was built or changed (set ELECTRON_MIRROR or ELECTRON_OVERRIDE_DIST_PATH, or run where the download works)`
      )
    }
    throw new DistError(`npm run dist: ${err instanceof Error ? err.message : String(err)}`)
  }
  const electronDist = process.env.ELECTRON_OVERRIDE_DIST_PATH || join(ROOT, 'node_modules', 'electron', 'dist')

  // 2. the configuration
  const problems = await checkPackaging({ root: ROOT, built: false })
  if (problems.length) throw new DistError(`npm run dist: the packaging configuration is wrong: ${problems.join('; ')}`)

  // 3. the build
  console.log('== build (electron-vite, CLI bundle)')
  const npmCli = process.env.npm_execpath
  const buildCode = npmCli
    ? await run(process.execPath, [npmCli, 'run', 'build'])
    : await run(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build'], { shell: process.platform === 'win32' })
  if (buildCode !== 0) throw new DistError('npm run dist: the build failed (see above)')
  const built = await checkPackaging({ root: ROOT, built: true })
  if (built.length) throw new DistError(`npm run dist: the build lacks what the installers need: ${built.join('; ')}`)

  // 4. the native addons
  try {
    await prepareElectronNative({ root: ROOT })
    await prepareCliNative({ root: ROOT })
  } catch (err) {
    throw new DistError(`npm run dist: ${err instanceof PrepareError ? err.message.split('. ')[0] : String(err)}`)
  }
  writeLinuxScripts()

  // 5. the installers
  console.log(`== electron-builder (Electron from ${electron})`)
  const builder = join(ROOT, 'node_modules', 'electron-builder', 'cli.js')
  const code = await run(process.execPath, [builder, '--config', 'electron-builder.config.mjs', `-c.electronDist=${electronDist}`, ...args])
  if (code !== 0) throw new DistError('npm run dist: electron-builder failed (see above)')
  console.log(`== done: ${join(ROOT, 'dist')}`)
  return 0
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      console.error(err instanceof DistError ? err.message : err)
      process.exit(1)
    }
  )
}
