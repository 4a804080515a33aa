/**
 * Writing a squad note (spec A): an agent writes only its own namespace `refs/notes/squad/<agent>`
 * (or appends to the shared `research`/`review` under its own name: `research` is no agent),
 * always with `git notes append`, so an existing
 * note on the commit is kept and the new one follows a blank line. The note is built and checked
 * before git runs: bad input changes nothing. The ref moves by compare-and-swap (`appendCas`), so
 * a concurrent writer's note is never overwritten: the append is redone on their tip.
 */
import { randomBytes } from 'node:crypto'
import { ApiError } from '../../shared/api-error'
import { DEPRECATED_SQUAD_REF, NOTE_TYPES, SQUAD_REF_PREFIX, type SquadNote } from '../../shared/contract/notes-types'
import { catFileBatch, isGitFailure, listRefs, git, gitText } from '../git'
import { checkNote, isSharedNamespace, missingFields, NOTE_TIMESTAMP } from './note-rules'
import { AGENT_ID_MESSAGE, isAgentId } from '../../shared/agent-id'

/** Safe ref names (spec A): these characters, no `..`. */
const SAFE_REF = /^[A-Za-z0-9_\-./]+$/
/** Attempts when another writer moves the notes ref at the same moment. */
const ATTEMPTS = 8

/** Writes of this process to one repository take turns (other processes are caught by the compare-and-swap). */
const turns = new Map<string, Promise<unknown>>()

function inTurn<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  const prev = turns.get(dir) ?? Promise.resolve()
  const next = prev.then(fn, fn)
  turns.set(
    dir,
    next.catch(() => undefined)
  )
  return next
}

/**
 * `git notes append` with a compare-and-swap: `git notes` updates its ref without checking that
 * nobody moved it meanwhile, so two appends at once can lose one. The append is made on a private
 * ref copied from the tip, then moved onto the real ref only if the tip is still the one copied
 * (`git update-ref REF NEW OLD`); when another writer got there first, it is redone on their tip.
 * Returns the note body after the append.
 */
export async function appendCas(dir: string, ref: string, commit: string, json: string, env: Record<string, string>): Promise<string> {
  const scratch = `refs/notes/muster-append/${process.pid}-${randomBytes(4).toString('hex')}`
  try {
    for (let attempt = 1; ; attempt++) {
      const old = (await git(dir, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { okCodes: [0, 1] })).stdout.trim()
      if (old) await git(dir, ['update-ref', scratch, old])
      else await git(dir, ['update-ref', '-d', scratch])
      await git(dir, ['notes', `--ref=${scratch}`, 'append', '-m', json, commit], { env })
      const made = await gitText(dir, ['rev-parse', '--verify', scratch])
      try {
        // '' as the old value: the ref must not exist yet
        await git(dir, ['update-ref', '-m', 'notes: append (muster)', ref, made, old])
        return (await gitText(dir, ['notes', `--ref=${ref}`, 'show', commit])) + '\n'
      } catch (err) {
        if (!isGitFailure(err, 'failed') || attempt >= ATTEMPTS) throw err
        await new Promise((r) => setTimeout(r, 10 * attempt))
      }
    }
  } finally {
    await git(dir, ['update-ref', '-d', scratch]).catch(() => undefined)
  }
}

/** A note to write. */
export interface NoteWrite {
  agent: string
  type: string
  /** JSON text: an object's fields join the note (as Squad's helper does), any other value becomes `content`. */
  content: string
  /** Commit-ish to annotate (default HEAD). */
  commit?: string
  /** `squad/<agent>` (default) or a shared namespace `squad/research` / `squad/review`. */
  ref?: string
  now?: Date
}

/** What was written. */
export interface NoteWritten {
  ref: string
  commit: string
  note: SquadNote
  /** The whole body of the commit's note after the append. */
  body: string
}

/** `YYYY-MM-DDTHH:MM:SSZ` of `d`. */
export function noteTimestamp(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z')
}

/** Builds and checks the note object; throws invalid_input with one line. */
export function buildNote(w: NoteWrite): { ref: string; namespace: string; data: Record<string, unknown> } {
  if (!isAgentId(w.agent)) throw new ApiError(AGENT_ID_MESSAGE, 'invalid_input')
  // a shared namespace is no agent: its notes keep their writer's name (`--agent you --ref squad/research`)
  if (isSharedNamespace(w.agent.toLowerCase()))
    throw new ApiError(
      `${w.agent} is a shared namespace, not an agent: write as yourself into it (--agent <you> --ref squad/${w.agent.toLowerCase()}), so the note keeps its writer's name`,
      'invalid_input'
    )
  const own = `${SQUAD_REF_PREFIX}${w.agent.toLowerCase()}`
  const ref = w.ref ? (w.ref.startsWith('refs/') ? w.ref : `refs/notes/${w.ref}`) : own
  if (!SAFE_REF.test(ref) || ref.includes('..')) throw new ApiError(`invalid notes ref '${w.ref}'`, 'invalid_input')
  const namespace = ref.startsWith(SQUAD_REF_PREFIX) ? ref.slice(SQUAD_REF_PREFIX.length) : ''
  if (ref !== own && !isSharedNamespace(namespace)) {
    throw new ApiError(
      `${w.agent} may write only ${own} or the shared refs/notes/squad/research and refs/notes/squad/review, not ${ref}`,
      'forbidden'
    )
  }
  if (!(NOTE_TYPES as readonly string[]).includes(w.type))
    throw new ApiError(`unknown note type '${w.type}': use one of ${NOTE_TYPES.join(', ')}`, 'invalid_input')
  let content: unknown
  try {
    content = JSON.parse(w.content)
  } catch {
    throw new ApiError('--content must be JSON: an object of note fields, or a quoted string', 'invalid_input')
  }
  const base = { agent: w.agent, timestamp: noteTimestamp(w.now ?? new Date()), type: w.type }
  let data: Record<string, unknown>
  if (content && typeof content === 'object' && !Array.isArray(content)) {
    const fields = content as Record<string, unknown>
    for (const k of ['agent', 'type'] as const) {
      if (fields[k] !== undefined && fields[k] !== base[k])
        throw new ApiError(`content sets ${k} to ${JSON.stringify(fields[k])}, but the note is ${k} ${base[k]}`, 'invalid_input')
    }
    if (fields.timestamp !== undefined && !(typeof fields.timestamp === 'string' && NOTE_TIMESTAMP.test(fields.timestamp))) {
      throw new ApiError(`content timestamp ${JSON.stringify(fields.timestamp)} is not YYYY-MM-DDTHH:MM:SSZ`, 'invalid_input')
    }
    data = { ...base, ...fields, agent: base.agent, type: base.type }
  } else data = { ...base, content }
  const missing = missingFields(data)
  if (missing.length) throw new ApiError(`the note would be missing ${missing.join(', ')}`, 'invalid_input')
  return { ref, namespace, data }
}

/** Appends a note to `w.commit` (default HEAD) in the repository at `dir`. */
export async function writeNote(dir: string, w: NoteWrite): Promise<NoteWritten> {
  const { ref, namespace, data } = buildNote(w)
  if ((await listRefs(dir, [DEPRECATED_SQUAD_REF])).some((r) => r.ref === DEPRECATED_SQUAD_REF)) {
    throw new ApiError(
      `${DEPRECATED_SQUAD_REF} exists (the deprecated state layer): git cannot create ${ref} beside it; move it aside first`,
      'conflict'
    )
  }
  const rev = w.commit ?? 'HEAD'
  if (rev.startsWith('-') || /[\s\0]/.test(rev)) throw new ApiError(`invalid commit '${rev}'`, 'invalid_input')
  const [obj] = await catFileBatch(dir, [`${rev}^{commit}`])
  if (!obj) throw new ApiError(`'${rev}' is not a commit in ${dir}`, 'invalid_input')
  const json = JSON.stringify(data)
  const who = {
    GIT_AUTHOR_NAME: w.agent,
    GIT_AUTHOR_EMAIL: `${w.agent}@squad.invalid`,
    GIT_COMMITTER_NAME: w.agent,
    GIT_COMMITTER_EMAIL: `${w.agent}@squad.invalid`
  }
  const body = await inTurn(dir, () => appendCas(dir, ref, obj.oid, json, who))
  const line = body.split('\n').lastIndexOf(json) + 1
  return { ref, commit: obj.oid, note: checkNote({ ref, namespace, commit: obj.oid, line }, data).note, body }
}
