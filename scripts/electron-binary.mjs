/**
 * The Electron binary of node_modules/electron: where it is, and getting it once when it is
 * missing (npm never runs Electron's own download: `allowScripts` keeps it off). Used by
 * `npm start` (scripts/start-desktop.mjs) and `npm run dist` (scripts/dist.mjs). A failed download
 * leaves node_modules/electron as it was.
 */
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const DOWNLOAD_TIMEOUT_MS = 15 * 60_000

/** The binary is missing and could not be downloaded: `version` and the download's `reason`. */
export class ElectronMissing extends Error {
  constructor(version, reason) {
    super(`the Electron ${version} binary is missing and could not be downloaded (${reason})`)
    this.name = 'ElectronMissing'
    this.version = version
    this.reason = reason
  }
}

/** The Electron executable if installed (honours ELECTRON_OVERRIDE_DIST_PATH), else null. */
export function installedElectronPath(electronDir = join(ROOT, 'node_modules', 'electron'), env = process.env) {
  let relative
  try {
    relative = readFileSync(join(electronDir, 'path.txt'), 'utf8').trim()
  } catch {
    relative = undefined
  }
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    const p = join(env.ELECTRON_OVERRIDE_DIST_PATH, relative || (process.platform === 'win32' ? 'electron.exe' : 'electron'))
    return existsSync(p) ? p : null
  }
  if (!relative) return null
  const p = join(electronDir, 'dist', relative)
  return existsSync(p) ? p : null
}

/** The version of node_modules/electron; throws when Electron is not installed at all. */
export function electronPackageVersion(root = ROOT) {
  try {
    return JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version
  } catch {
    throw new Error('Electron is not installed in node_modules. Run `npm install` first.')
  }
}

/** The last telling line of a failed download's output. */
function downloadProblem(output) {
  const lines = output
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
  const line =
    lines.find((l) => /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ECONNRESET|getaddrinfo|timed out|\b404\b/i.test(l)) ??
    lines.find((l) => /^(Request)?Error\b|error:/i.test(l)) ??
    lines.at(-1) ??
    'no output'
  return line.length > 160 ? `${line.slice(0, 160)}…` : line
}

/**
 * Makes sure the binary exists, downloading it once (about 100 MB) with Electron's own installer;
 * returns its path. Throws ElectronMissing when it cannot, with node_modules/electron unchanged.
 */
export async function ensureElectronBinary({ root = ROOT, log = (m) => console.log(m) } = {}) {
  const electronDir = join(root, 'node_modules', 'electron')
  const existing = installedElectronPath(electronDir)
  if (existing) return existing
  const version = electronPackageVersion(root)
  const distDir = join(electronDir, 'dist')
  const pathTxt = join(electronDir, 'path.txt')
  const hadDist = existsSync(distDir)
  const hadPathTxt = existsSync(pathTxt)
  log(`The Electron ${version} binary is not installed yet; downloading it once (about 100 MB)…`)
  const { code, output } = await new Promise((done) => {
    const child = spawn(process.execPath, [join(electronDir, 'install.js')], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    const collect = (chunk) => (out = (out + chunk.toString()).slice(-20_000))
    child.stdout.on('data', collect)
    child.stderr.on('data', collect)
    const timer = setTimeout(() => {
      out += `\n(timed out after ${Math.round(DOWNLOAD_TIMEOUT_MS / 1000)} s)`
      child.kill()
    }, DOWNLOAD_TIMEOUT_MS)
    child.on('error', (err) => {
      clearTimeout(timer)
      done({ code: 1, output: `${out}\n${err.message}` })
    })
    child.on('close', (c) => {
      clearTimeout(timer)
      done({ code: c ?? 1, output: out })
    })
  })
  const installed = code === 0 ? installedElectronPath(electronDir) : null
  if (installed) return installed
  // Leave node_modules/electron as we found it: no partial dist, no path.txt naming nothing.
  if (!hadDist) rmSync(distDir, { recursive: true, force: true })
  if (!hadPathTxt) rmSync(pathTxt, { force: true })
  throw new ElectronMissing(version, downloadProblem(output))
}
