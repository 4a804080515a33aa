/**
 * What a squad note must be (spec A): a JSON object with `agent`, `timestamp`
 * (`YYYY-MM-DDTHH:MM:SSZ`), `type` and `content`, written by the owner of its namespace (shared
 * `research`/`review` excepted). The protocol document's own decision and research examples carry
 * `decision` or `topic`/`findings` instead of `content`; Muster accepts those as the content.
 */
import { hash } from 'node:crypto'
import { NOTE_TYPES, REQUIRED_NOTE_FIELDS, SHARED_NAMESPACES, type NoteFinding, type SquadNote } from '../../shared/contract/notes-types'

/** The timestamp format the protocol requires. */
export const NOTE_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/

const KNOWN_TYPES = new Set<string>(NOTE_TYPES)
const SHARED = new Set<string>(SHARED_NAMESPACES)

/** Fields that stand in for `content` in the document's own examples, per type. */
const CONTENT_STAND_INS: Record<string, string[]> = { decision: ['decision'], research: ['topic', 'findings'] }

/** True for a shared namespace any agent may append to. */
export function isSharedNamespace(namespace: string): boolean {
  return SHARED.has(namespace)
}

/** The stable id of a note: commit plus its JSON, so duplicates (append twice, merge) share it. */
export function noteId(commit: string, data: unknown): string {
  return hash('sha256', `${commit}\n${JSON.stringify(data)}`).slice(0, 16)
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null)

/** Missing required fields of a note object. */
export function missingFields(data: Record<string, unknown>): string[] {
  const present = (k: string) => data[k] !== undefined && data[k] !== null && data[k] !== ''
  return REQUIRED_NOTE_FIELDS.filter((f) => {
    if (present(f)) return false
    return !(f === 'content' && (CONTENT_STAND_INS[String(data.type)] ?? []).some(present))
  })
}

/** One line describing the note. */
function summaryOf(data: Record<string, unknown>): string {
  for (const k of ['content', 'decision', 'topic']) {
    const v = data[k]
    if (typeof v === 'string' && v.trim()) return v.trim().split('\n')[0]!
    if (v !== undefined && v !== null && typeof v !== 'string') return JSON.stringify(v).slice(0, 200)
  }
  return ''
}

/** Place of a note being checked. */
export interface NotePlace {
  ref: string
  namespace: string
  commit: string
  line: number
}

/** Builds the contract's note from a parsed JSON object, with its findings. */
export function checkNote(place: NotePlace, data: Record<string, unknown>): { note: SquadNote; findings: NoteFinding[] } {
  const id = noteId(place.commit, data)
  const findings: NoteFinding[] = []
  const at = { ref: place.ref, commit: place.commit, line: place.line, noteId: id }
  const missing = missingFields(data)
  if (missing.length) findings.push({ level: 'error', code: 'missing-field', ...at, message: `note is missing ${missing.join(', ')}` })
  const type = str(data.type)
  if (type && !KNOWN_TYPES.has(type))
    findings.push({
      level: 'warning',
      code: 'unknown-type',
      ...at,
      message: `unknown note type '${type}' (known: ${NOTE_TYPES.join(', ')})`
    })
  const timestamp = str(data.timestamp)
  if (timestamp && !NOTE_TIMESTAMP.test(timestamp))
    findings.push({ level: 'warning', code: 'bad-timestamp', ...at, message: `timestamp '${timestamp}' is not YYYY-MM-DDTHH:MM:SSZ` })
  const agent = str(data.agent)
  if (agent && !isSharedNamespace(place.namespace) && agent.toLowerCase() !== place.namespace.toLowerCase()) {
    findings.push({
      level: 'error',
      code: 'foreign-namespace',
      ...at,
      message: `${agent} wrote in ${place.ref}: only ${place.namespace} writes its namespace`
    })
  }
  const note: SquadNote = {
    id,
    ref: place.ref,
    namespace: place.namespace,
    commit: place.commit,
    line: place.line,
    agent,
    timestamp,
    type,
    summary: summaryOf(data),
    promote: data.promote_to_permanent === true,
    archive: data.archive_on_close === true,
    data
  }
  return { note, findings }
}
