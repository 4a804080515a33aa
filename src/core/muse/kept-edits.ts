/**
 * Sends kept aside (`safe-write-guard.ts`): when another writer kept dropping an acknowledged send
 * and it could not be applied again, the version holding it stays beside the role file as
 * `.<file>.muster-lost-<pid>-<hex>`. Here they are listed with the lines they would bring back, and
 * merged with one click: a union merge of the kept version into the live file (every line of the
 * live file stays, the kept version's lines the file lacks are put back where they stood), done
 * through `safeEdit` and guarded like a send; then the kept copy is deleted. A kept copy whose
 * lines are all in the file already is merged by deleting it.
 */
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { diffLines } from 'diff'
import { ApiError } from '../../shared/api-error'
import type { KeptEdit } from '../../shared/contract/muse'
import type { FleetView, ScannedProject } from './fleet-scan'
import { parseLeftover } from './leftover-names'
import { museDir, roleName } from './role-files'
import { safeEdit } from './safe-write'

/** How many of a kept copy's lines an item previews. */
const PREVIEW_LINES = 12

/**
 * The union of the live text and a kept version: the live text with the kept version's missing
 * lines put back in place (null: none missing). Where both changed the same place, the kept lines
 * go first: a send sits at the end of what preceded it, before what the agent wrote after it.
 */
export function unionMerge(live: string, kept: string): string | null {
  const parts = diffLines(live, kept)
  if (!parts.some((p) => p.added && p.value.trim())) return null
  // jsdiff gives a changed place as its removed part, then its added part: swapped here
  for (let i = 0; i + 1 < parts.length; i++) {
    if (parts[i]!.removed && parts[i + 1]!.added) [parts[i], parts[i + 1]] = [parts[i + 1]!, parts[i]!]
  }
  let out = ''
  for (const p of parts) {
    // a line both sides end differently (final newline) would otherwise be glued to the next one
    if (out && !out.endsWith('\n')) out += '\n'
    out += p.value
  }
  return out
}

/** The lines of `kept` that `live` lacks (blank ones aside). */
export function missingLines(live: string, kept: string): string[] {
  return diffLines(live, kept)
    .filter((p) => p.added)
    .flatMap((p) => p.value.split(/\r?\n/))
    .filter((l) => l.trim())
}

/** The kept sends of the fleet (of one project when given), oldest first. */
export async function keptEdits(view: FleetView, project?: string): Promise<KeptEdit[]> {
  const out: KeptEdit[] = []
  for (const sp of view.projects) {
    if (project && sp.project.name !== project) continue
    for (const name of sp.listing?.workingFiles ?? []) {
      const l = parseLeftover(name)
      if (l?.kind !== 'lost') continue
      const found = await describe(sp, name, l.file).catch(() => null)
      if (found) out.push(found)
    }
  }
  return out.sort((a, b) => a.since.localeCompare(b.since))
}

async function describe(sp: ScannedProject, name: string, file: string): Promise<KeptEdit | null> {
  const dir = museDir(sp.project.path)
  const st = await fs.stat(join(dir, name))
  const kept = await fs.readFile(join(dir, name), 'utf8')
  const live = await fs.readFile(join(dir, file), 'utf8').catch(() => '')
  const lines = missingLines(strip(live), strip(kept))
  return {
    project: sp.project.name,
    role: roleName(file),
    file,
    name,
    since: st.mtime.toISOString(),
    missing: lines.length,
    preview: lines.slice(0, PREVIEW_LINES)
  }
}

const strip = (t: string): string => t.replace(/^\uFEFF/, '')

/** Where a kept copy named by the operator lies, refused unless it is one (nothing else is ever read or deleted). */
function keptPath(projectPath: string, name: string): { kept: string; live: string; file: string } {
  const l = parseLeftover(name)
  if (!l || l.kind !== 'lost' || name.includes('/') || name.includes('\\'))
    throw new ApiError(`'${name}' is not a send kept aside (.<file>.muster-lost-<pid>-<hex>)`, 'invalid_input')
  const dir = museDir(projectPath)
  return { kept: join(dir, name), live: join(dir, l.file), file: l.file }
}

async function readKept(path: string, name: string): Promise<string> {
  try {
    return strip(await fs.readFile(path, 'utf8'))
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new ApiError(`${name} is gone (merged or deleted already)`, 'not_found')
    throw err
  }
}

/** Merges a kept copy into its role file (union merge, guarded like a send), then deletes it; how many lines came back. */
export async function mergeKept(projectPath: string, name: string): Promise<{ file: string; restored: number }> {
  const { kept, live, file } = keptPath(projectPath, name)
  const text = await readKept(kept, name)
  const result = await safeEdit(live, (current) => unionMerge(current, text), { within: projectPath, guard: true })
  const restored = result.applied ? missingLines(result.applied.before, text).length : 0
  await fs.rm(kept, { force: true })
  return { file, restored }
}

/** Deletes a kept copy the operator does not want merged. */
export async function discardKept(projectPath: string, name: string): Promise<{ file: string }> {
  const { kept, file } = keptPath(projectPath, name)
  await readKept(kept, name)
  await fs.rm(kept, { force: true })
  return { file }
}
