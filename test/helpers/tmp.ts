/** Temporary folders for tests, removed after each test file. */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll } from 'vitest'

const made: string[] = []
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
})

/** A fresh empty folder. */
export function tmpDir(prefix = 'muster-test-'): string {
  const d = mkdtempSync(join(tmpdir(), prefix))
  made.push(d)
  return d
}

/** Writes files (relative path -> content) under `root`, creating folders. */
export function writeTree(root: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    const p = join(root, rel)
    mkdirSync(dirname(p), { recursive: true })
    writeFileSync(p, content)
  }
}

/** A minimal MUSE project folder with the given role files. */
export function makeProject(parent: string, name: string, roles: Record<string, string>): string {
  const root = join(parent, name)
  writeTree(root, Object.fromEntries(Object.entries(roles).map(([r, c]) => [`.muse/${r}.md`, c])))
  return root
}
