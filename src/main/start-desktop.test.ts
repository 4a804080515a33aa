import { describe, expect, it } from 'vitest'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)))
const ELECTRON_DIR = join(ROOT, 'node_modules/electron')

function electronBinaryInstalled(): boolean {
  try {
    return existsSync(join(ELECTRON_DIR, 'dist', readFileSync(join(ELECTRON_DIR, 'path.txt'), 'utf8').trim()))
  } catch {
    return false
  }
}

describe('scripts/start-desktop.mjs', () => {
  // Only meaningful where the binary is missing: an unreachable mirror makes the download fail fast.
  it.skipIf(electronBinaryInstalled())('fails with one paragraph, a non-zero exit and nothing half-written', () => {
    const cache = mkdtempSync(join(tmpdir(), 'muster-electron-cache-'))
    const before = readdirSync(ELECTRON_DIR).sort()
    try {
      const r = spawnSync(process.execPath, [join(ROOT, 'scripts/start-desktop.mjs')], {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 60_000,
        env: { ...process.env, ELECTRON_MIRROR: 'http://127.0.0.1:9/', electron_config_cache: cache, ELECTRON_OVERRIDE_DIST_PATH: '' }
      })
      expect(r.status).not.toBe(0)
      const paragraphs = r.stderr
        .split(/\n\s*\n/)
        .map((p) => p.trim())
        .filter(Boolean)
      expect(paragraphs).toHaveLength(1)
      expect(paragraphs[0]).toMatch(/needs the Electron .* binary/)
      expect(paragraphs[0]).toContain('npm run serve')
      expect(paragraphs[0]).not.toMatch(/\n\s+at /) // no stack trace
      expect(readdirSync(ELECTRON_DIR).sort()).toEqual(before)
    } finally {
      rmSync(cache, { recursive: true, force: true })
    }
  })
})
