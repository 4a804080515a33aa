/**
 * Where a Squad repository keeps its state (github/squad's `resolveStateBackend`,
 * packages/squad-sdk/src/state-backend.ts): `.squad/config.json`'s `stateBackend` is `local`
 * (the `.squad/` folder, default; `worktree` is its old name), `orphan` or `two-layer` (files on
 * the orphan branch `squad-state`; `git-notes` is migrated to `two-layer`). Squad's own promotion
 * (`squad notes promote`, TwoLayerBackend.promoteNotes) writes `promoted/<ref>/<sha>.json` and
 * `archive/<ref>/<sha>.json` on that branch. Muster reads the branch's file list: the Notes
 * screen names it, and promotion counts what Squad already promoted or archived there.
 */
import { existsSync, promises as fs } from 'node:fs'
import { join } from 'node:path'
import { git } from '../git'

/** The orphan branch Squad's `orphan` and `two-layer` backends keep state on. */
export const SQUAD_STATE_BRANCH = 'squad-state'

/** The state folder of the repository at `root`, relative to it: `.squad/` (the older `.ai-team/` when only that exists). */
export function stateDirOf(root: string): string {
  return !existsSync(join(root, '.squad')) && existsSync(join(root, '.ai-team')) ? '.ai-team' : '.squad'
}

/** A repository's Squad state backend as its config names it. */
export interface SquadStateBackend {
  kind: 'local' | 'orphan' | 'two-layer'
  /** `squad-state` for the branch backends, else null. */
  branch: string | null
  /** Whether the branch exists in the repository (null for `local`). */
  branchExists: boolean | null
  /** Paths of the files on the branch (empty for `local` or a missing branch). */
  files: string[]
}

/** The backend named by `<root>/<stateDir>/config.json` (missing or unreadable config: local). */
export async function readStateBackend(root: string, stateDir: string): Promise<SquadStateBackend> {
  let named: unknown
  try {
    named = (JSON.parse(await fs.readFile(join(root, stateDir, 'config.json'), 'utf8')) as { stateBackend?: unknown }).stateBackend
  } catch {
    named = undefined
  }
  const kind = named === 'orphan' ? 'orphan' : named === 'two-layer' || named === 'git-notes' ? 'two-layer' : 'local'
  if (kind === 'local') return { kind, branch: null, branchExists: null, files: [] }
  const listed = await git(root, ['ls-tree', '-r', '-z', '--name-only', `refs/heads/${SQUAD_STATE_BRANCH}`], { okCodes: [0, 128] }).catch(
    () => null
  )
  if (!listed || listed.code !== 0) return { kind, branch: SQUAD_STATE_BRANCH, branchExists: false, files: [] }
  return { kind, branch: SQUAD_STATE_BRANCH, branchExists: true, files: listed.stdout.split('\0').filter(Boolean) }
}

/** Squad's key on the state branch for a promoted or archived note (`promoted/squad/data/<sha>.json`). */
export function stateBranchKey(kind: 'promoted' | 'archive', ref: string, commit: string): string {
  const seg = ref
    .replace(/^refs\/notes\//, '')
    .split('/')
    .filter(Boolean)
    .join('/')
  return `${kind}/${seg}/${commit}.json`
}
