#!/usr/bin/env node
/**
 * `npm start`: runs the desktop app. Makes sure the Electron binary is there (downloading it once
 * when missing), prepares the Electron-ABI SQLite addon, builds with electron-vite and launches
 * Electron. Each step fails with one clear paragraph and a non-zero exit, leaving nothing
 * half-written.
 *
 * Usage: node scripts/start-desktop.mjs [--dev] [--skip-build] [-- <app args, e.g. --home DIR>]
 *   --dev         run `electron-vite dev` (hot reload) instead of build + launch
 *   --skip-build  launch the existing `out/` build
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ElectronMissing, ensureElectronBinary } from './electron-binary.mjs'
import { prepareElectronNative, PrepareError } from './prepare-electron-native.mjs'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const ELECTRON_VITE = join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js')

/** A failure whose message is the one paragraph shown to the user. */
class StartError extends Error {}

/** Runs a command; resolves { code, output } with output captured (or inherited when `inherit`). */
function run(command, args, { inherit = false, timeoutMs = 0, env } = {}) {
  return new Promise((resolvePromise) => {
    const child = spawn(command, args, { cwd: ROOT, env: env ?? process.env, stdio: inherit ? 'inherit' : ['ignore', 'pipe', 'pipe'] })
    let output = ''
    const collect = (chunk) => (output = (output + chunk.toString()).slice(-20_000))
    child.stdout?.on('data', collect)
    child.stderr?.on('data', collect)
    const timer = timeoutMs
      ? setTimeout(() => {
          output += `\n(timed out after ${Math.round(timeoutMs / 1000)} s)`
          child.kill()
        }, timeoutMs)
      : null
    const forward = (signal) => child.kill(signal)
    process.on('SIGINT', forward)
    process.on('SIGTERM', forward)
    const done = (code) => {
      if (timer) clearTimeout(timer)
      process.off('SIGINT', forward)
      process.off('SIGTERM', forward)
      resolvePromise({ code, output })
    }
    child.on('error', (err) => {
      output += `\n${err.message}`
      done(1)
    })
    child.on('close', (code, signal) => done(code ?? (signal ? 1 : 0)))
  })
}

/** Makes sure the Electron binary exists (downloading it once); returns its path. */
async function ensureElectron() {
  try {
    return await ensureElectronBinary({ root: ROOT })
  } catch (err) {
    if (!(err instanceof ElectronMissing)) throw new StartError(err instanceof Error ? err.message : String(err))
    throw new StartError(
      `Muster's desktop app needs the Electron ${err.version} binary, and downloading it failed (${err.reason}). ` +
        'Nothing was changed. Check your network or proxy, or point ELECTRON_MIRROR at a reachable mirror or ELECTRON_OVERRIDE_DIST_PATH at an Electron you already have, then run `npm start` again. ' +
        'Meanwhile the same console runs in your browser with `npm run serve`.'
    )
  }
}

function parseArgs(argv) {
  const sep = argv.indexOf('--')
  const own = sep === -1 ? argv : argv.slice(0, sep)
  // Unknown options before `--` go to the app too, so `npm start -- --home DIR` works.
  const appArgs = [...own.filter((a) => a !== '--dev' && a !== '--skip-build'), ...(sep === -1 ? [] : argv.slice(sep + 1))]
  return { dev: own.includes('--dev'), skipBuild: own.includes('--skip-build'), appArgs }
}

async function main(argv) {
  const { dev, skipBuild, appArgs } = parseArgs(argv)
  const electron = await ensureElectron()

  try {
    const native = await prepareElectronNative({ root: ROOT })
    if (native.skipped) console.log(`SQLite addon for Electron: ${native.path}`)
  } catch (err) {
    if (err instanceof PrepareError) throw new StartError(err.message)
    throw err
  }

  // ELECTRON_RUN_AS_NODE would make Electron behave as plain Node.
  const env = { ...process.env }
  delete env.ELECTRON_RUN_AS_NODE

  if (dev) {
    const r = await run(process.execPath, [ELECTRON_VITE, 'dev', ...(appArgs.length ? ['--', ...appArgs] : [])], { inherit: true, env })
    return r.code
  }
  if (!skipBuild) {
    console.log('Building (electron-vite build)…')
    const r = await run(process.execPath, [ELECTRON_VITE, 'build'], { inherit: true, env })
    if (r.code !== 0) throw new StartError('The build failed (see the messages above); the app was not started.')
  }
  if (!existsSync(join(ROOT, 'out', 'main', 'index.js'))) {
    throw new StartError('There is no build in out/ to launch; run without --skip-build.')
  }
  console.log('Starting Muster…')
  const r = await run(electron, ['.', ...appArgs], { inherit: true, env })
  return r.code
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      console.error(err instanceof StartError ? `\n${err.message}\n` : err)
      process.exit(1)
    }
  )
}
