/**
 * Reads a repository's squad notes through git plumbing in batches: `for-each-ref` for the refs,
 * one `git notes list` per ref for the (blob, commit) pairs, then one `cat-file --batch` for every
 * note blob and one for every noted commit. 10,000 notes cost a handful of processes. Findings
 * cover the bodies (unparseable parts, non-objects), each note (note-rules), the deprecated
 * `refs/notes/squad` ref that blocks agents' refs, and remotes that do not fetch notes.
 */
import { catFileBatch, isGitFailure, defaultBranch, listRefs, reachableFrom, remoteFetchSpecs, repoInfo, type RefEntry, git } from '../git'
import {
  DEPRECATED_SQUAD_REF,
  SQUAD_REF_PREFIX,
  type NoteBody,
  type NoteFinding,
  type NotedCommit,
  type NotesRef,
  type NotesSnapshot
} from '../../shared/contract/notes-types'
import { splitBody } from './body'
import { commitInfo } from './commit-info'
import { checkNote, isSharedNamespace } from './note-rules'
import { refspecFindings } from './refspec'
import { readStateBackend, stateDirOf } from './state-backend'

/** `(note blob, annotated object)` pairs of one notes ref (`git notes --ref=R list`). */
export async function listNotePairs(dir: string, ref: string): Promise<{ blob: string; commit: string }[]> {
  const out = (await git(dir, ['notes', `--ref=${ref}`, 'list'])).stdout
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [blob, commit] = line.split(' ')
      return { blob: blob!, commit: commit! }
    })
}

/** What to read. */
export interface ReadOptions {
  /** Only this ref (`squad/data` or `refs/notes/squad/data`). */
  ref?: string
}

/** The full ref name of `squad/x` / `refs/notes/squad/x`. */
export function fullNotesRef(ref: string): string {
  return ref.startsWith('refs/') ? ref : `refs/notes/${ref}`
}

/** Reachable-commit sets by repository, valid while the default branch's tip is unchanged. */
const reachCache = new Map<string, { tip: string; commits: Set<string> }>()

async function mergedSet(dir: string, key: string, branch: string | null, tips: RefEntry[]): Promise<Set<string>> {
  if (!branch) return new Set()
  const tip = tips.find((r) => r.ref === branch)?.oid ?? branch
  const hit = reachCache.get(key)
  if (hit && hit.tip === tip) return hit.commits
  const commits = await reachableFrom(dir, tip)
  reachCache.set(key, { tip, commits })
  return commits
}

function conflictFinding(deprecatedNotes: number, agentRefs: string[]): NoteFinding {
  const beside = agentRefs.length
    ? `; ${agentRefs.join(', ')} exist${agentRefs.length === 1 ? 's' : ''} beside it (packed or fetched), which git cannot keep consistent`
    : ''
  return {
    level: 'error',
    code: 'ref-conflict',
    ref: DEPRECATED_SQUAD_REF,
    commit: null,
    line: null,
    noteId: null,
    message:
      `${DEPRECATED_SQUAD_REF} (the deprecated state layer, ${deprecatedNotes} note${deprecatedNotes === 1 ? '' : 's'}) blocks refs/notes/squad/<agent>: git refuses to create them beside it${beside}. ` +
      `Move it aside: git update-ref refs/notes/squad-legacy ${DEPRECATED_SQUAD_REF} && git update-ref -d ${DEPRECATED_SQUAD_REF}`
  }
}

/** Reads every squad note of the repository holding `dir`. */
export async function readSquadNotes(project: string, dir: string, opts: ReadOptions = {}): Promise<NotesSnapshot> {
  const empty = {
    project,
    defaultBranch: null,
    refs: [],
    commits: [],
    findings: [],
    counts: { notes: 0, bodies: 0, commits: 0, errors: 0, warnings: 0 }
  }
  let info
  try {
    info = await repoInfo(dir)
  } catch (err) {
    if (isGitFailure(err, 'not-a-repo', 'no-folder', 'missing')) return { ...empty, repo: null, problem: err.message }
    throw err
  }
  const only = opts.ref ? fullNotesRef(opts.ref) : null
  const [squadRefs, branchRefs, branch, remotes] = await Promise.all([
    listRefs(dir, ['refs/notes/squad']),
    listRefs(dir, ['refs/heads', 'refs/remotes']),
    defaultBranch(dir),
    remoteFetchSpecs(dir)
  ])
  const findings: NoteFinding[] = [...refspecFindings(remotes)]
  const agentRefs = squadRefs.filter((r) => r.ref.startsWith(SQUAD_REF_PREFIX))
  if (squadRefs.some((r) => r.ref === DEPRECATED_SQUAD_REF)) {
    findings.push(
      conflictFinding(
        (await listNotePairs(dir, DEPRECATED_SQUAD_REF)).length,
        agentRefs.map((r) => r.ref)
      )
    )
  }
  const chosen = agentRefs.filter((r) => !only || r.ref === only)
  const pairs = await Promise.all(chosen.map(async (r) => ({ ref: r.ref, pairs: await listNotePairs(dir, r.ref) })))
  const flat = pairs.flatMap((p) => p.pairs.map((x) => ({ ref: p.ref, ...x })))
  const blobs = [...new Set(flat.map((x) => x.blob))]
  const commitShas = [...new Set(flat.map((x) => x.commit))]
  const [blobObjs, commitObjs, merged] = await Promise.all([
    catFileBatch(dir, blobs),
    catFileBatch(dir, commitShas),
    mergedSet(dir, info.commonDir, branch, branchRefs)
  ])
  const blobText = new Map(blobs.map((b, i) => [b, blobObjs[i]?.content.toString('utf8') ?? '']))
  const commits = new Map<string, NotedCommit>(
    commitShas.map((sha, i) => [sha, { sha, ...commitInfo(commitObjs[i] ?? null), merged: merged.has(sha), bodies: [] }])
  )
  const refStats = new Map<string, NotesRef>(
    chosen.map((r) => {
      const namespace = r.ref.slice(SQUAD_REF_PREFIX.length)
      return [r.ref, { ref: r.ref, namespace, shared: isSharedNamespace(namespace), bodies: 0, notes: 0 }]
    })
  )
  for (const { ref, blob, commit } of flat) {
    const stats = refStats.get(ref)!
    const text = blobText.get(blob) ?? ''
    const split = splitBody(text)
    const body: NoteBody = {
      ref,
      namespace: stats.namespace,
      commit,
      blob,
      shape: split.shape,
      bytes: Buffer.byteLength(text),
      notes: [],
      unparseable: split.unparseable
    }
    for (const u of split.unparseable) {
      findings.push({
        level: 'error',
        code: 'unparseable',
        ref,
        commit,
        line: u.line,
        noteId: null,
        message: `unparseable note text in ${ref} on ${commit.slice(0, 12)}, line ${u.line}: ${u.text.split('\n')[0]!.slice(0, 80)}`
      })
    }
    for (const v of split.values) {
      if (!v.value || typeof v.value !== 'object' || Array.isArray(v.value)) {
        findings.push({
          level: 'error',
          code: 'not-an-object',
          ref,
          commit,
          line: v.line,
          noteId: null,
          message: `note at line ${v.line} in ${ref} on ${commit.slice(0, 12)} is ${Array.isArray(v.value) ? 'an array' : 'not an object'}: ${JSON.stringify(v.value).slice(0, 80)}`
        })
        continue
      }
      const checked = checkNote({ ref, namespace: stats.namespace, commit, line: v.line }, v.value as Record<string, unknown>)
      body.notes.push(checked.note)
      findings.push(...checked.findings)
    }
    stats.bodies++
    stats.notes += body.notes.length
    commits.get(commit)!.bodies.push(body)
  }
  const list = [...commits.values()].sort((a, b) => (b.date ?? '').localeCompare(a.date ?? '') || a.sha.localeCompare(b.sha))
  const notes = list.reduce((n, c) => n + c.bodies.reduce((m, b) => m + b.notes.length, 0), 0)
  const { files, ...stateBackend } = await readStateBackend(info.root, stateDirOf(info.root))
  return {
    project,
    repo: info.root,
    problem: null,
    defaultBranch: branch,
    refs: [...refStats.values()],
    stateBackend,
    ...(stateBackend.branch ? { stateFiles: files.length } : {}),
    commits: list,
    findings,
    counts: {
      notes,
      bodies: flat.length,
      commits: list.length,
      errors: findings.filter((f) => f.level === 'error').length,
      warnings: findings.filter((f) => f.level === 'warning').length
    }
  }
}
