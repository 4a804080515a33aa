/**
 * A harness file Muster owns whole (OpenCode's plugin): marked on its first line, written through a
 * temporary file and a rename, removed on uninstall, and never a file without the mark.
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { makeDirSync } from '../make-dir'

/** Writes `source` (which starts with `mark`); what it did. A file there without the mark is refused. */
export function installOwnFile(file: string, source: string, mark: string): 'installed' | 'updated' | 'unchanged' {
  const old = existsSync(file) ? readFileSync(file, 'utf8') : null
  if (old !== null && !old.startsWith(mark)) throw new Error(`${file} exists and is not Muster's; nothing was changed`)
  if (old === source) return 'unchanged'
  makeDirSync(dirname(file))
  const tmp = `${file}.${process.pid}.muster.tmp`
  writeFileSync(tmp, source, { mode: 0o644 })
  renameSync(tmp, file)
  return old === null ? 'installed' : 'updated'
}

/** Removes Muster's file (never one without the mark). */
export function uninstallOwnFile(file: string, mark: string): 'removed' | 'absent' {
  if (!existsSync(file)) return 'absent'
  if (!readFileSync(file, 'utf8').startsWith(mark)) throw new Error(`${file} is not Muster's; nothing was changed`)
  rmSync(file)
  return 'removed'
}
