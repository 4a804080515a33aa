/**
 * Squad git notes as the contract shows them (spec/notes-and-invocations.md A): the vocabulary
 * (namespaces, note types, required fields), one parsed note, a note body with its real shape,
 * the commits notes hang on, and the findings a repository's notes produce.
 */
import { z } from 'zod'

/** Note types the protocol document names. */
export const DOC_NOTE_TYPES = ['decision', 'research', 'review', 'progress', 'security'] as const
/** Further types Squad's helper script accepts. */
export const SCRIPT_NOTE_TYPES = ['security-review', 'api-contract', 'risk-assessment', 'routing-discovery', 'counter-argument'] as const
/** Every known note type. */
export const NOTE_TYPES = [...DOC_NOTE_TYPES, ...SCRIPT_NOTE_TYPES] as const
/** A known note type. */
export type NoteType = (typeof NOTE_TYPES)[number]
/** Fields every note must carry (decision notes may carry `decision`, research notes `topic`/`findings`, instead of `content`). */
export const REQUIRED_NOTE_FIELDS = ['agent', 'timestamp', 'type', 'content'] as const
/** Namespaces any agent may append to. */
export const SHARED_NAMESPACES = ['research', 'review'] as const
/** The prefix of every squad notes ref. */
export const SQUAD_REF_PREFIX = 'refs/notes/squad/'
/** The deprecated single ref that cannot coexist with `refs/notes/squad/<agent>`. */
export const DEPRECATED_SQUAD_REF = 'refs/notes/squad'

/** How a note body is laid out: the four real shapes, bodies mixing them, empty ones, and ones with no JSON at all. */
export const NoteShapeSchema = z.enum(['object', 'appended', 'jsonl', 'pretty', 'mixed', 'empty', 'unparseable'])
export type NoteShape = z.infer<typeof NoteShapeSchema>

/** One note: its place (ref, commit, line in the body) and its JSON. */
export const SquadNoteSchema = z.object({
  /** Stable id: the commit plus the note's JSON (the same note appended twice or merged has one id). */
  id: z.string(),
  ref: z.string(),
  namespace: z.string(),
  commit: z.string(),
  /** 1-based line of the note in its body. */
  line: z.number().int(),
  agent: z.string().nullable(),
  timestamp: z.string().nullable(),
  type: z.string().nullable(),
  /** One line to show: `content`, else `decision`, else `topic`. */
  summary: z.string(),
  promote: z.boolean(),
  archive: z.boolean(),
  data: z.record(z.string(), z.unknown())
})
export type SquadNote = z.infer<typeof SquadNoteSchema>

/** The note body of one commit in one ref. */
export const NoteBodySchema = z.object({
  ref: z.string(),
  namespace: z.string(),
  commit: z.string(),
  blob: z.string(),
  shape: NoteShapeSchema,
  bytes: z.number().int(),
  notes: z.array(SquadNoteSchema),
  /** Parts of the body that are not JSON objects. */
  unparseable: z.array(z.object({ line: z.number().int(), text: z.string() }))
})
export type NoteBody = z.infer<typeof NoteBodySchema>

/** A commit carrying notes. */
export const NotedCommitSchema = z.object({
  sha: z.string(),
  /** First line of the message; null when the object is not in the repository. */
  subject: z.string().nullable(),
  author: z.string().nullable(),
  /** Author date, ISO 8601 UTC. */
  date: z.string().nullable(),
  /** Reachable from the default branch (merged). */
  merged: z.boolean(),
  bodies: z.array(NoteBodySchema)
})
export type NotedCommit = z.infer<typeof NotedCommitSchema>

/** Kinds of findings about notes and their refs. */
export const NoteFindingCodeSchema = z.enum([
  'unparseable',
  'not-an-object',
  'missing-field',
  'unknown-type',
  'bad-timestamp',
  'foreign-namespace',
  'ref-conflict',
  'refspec-missing'
])
export type NoteFindingCode = z.infer<typeof NoteFindingCodeSchema>

/** A finding; `ref`, `commit`, `line` and `noteId` say where when it is about one body or note. */
export const NoteFindingSchema = z.object({
  level: z.enum(['error', 'warning']),
  code: NoteFindingCodeSchema,
  ref: z.string().nullable(),
  commit: z.string().nullable(),
  line: z.number().int().nullable(),
  noteId: z.string().nullable(),
  message: z.string()
})
export type NoteFinding = z.infer<typeof NoteFindingSchema>

/** One squad ref and how many notes it holds. */
export const NotesRefSchema = z.object({
  ref: z.string(),
  namespace: z.string(),
  shared: z.boolean(),
  bodies: z.number().int(),
  notes: z.number().int()
})
export type NotesRef = z.infer<typeof NotesRefSchema>

/** Where a repository keeps Squad's state (`.squad/config.json` `stateBackend`): the `.squad/` folder, or the orphan branch `squad-state`. */
export const SquadStateBackendSchema = z.object({
  kind: z.enum(['local', 'orphan', 'two-layer']),
  /** The state branch (`squad-state`), or null for `local`. */
  branch: z.string().nullable(),
  /** Whether that branch exists (null for `local`). */
  branchExists: z.boolean().nullable()
})
export type SquadStateBackendInfo = z.infer<typeof SquadStateBackendSchema>

/** A repository's squad notes. */
export const NotesSnapshotSchema = z.object({
  project: z.string(),
  /** The repository's work tree, or null when the project is not in a git repository. */
  repo: z.string().nullable(),
  /** Why there is no repository (or git is missing), else null. */
  problem: z.string().nullable(),
  defaultBranch: z.string().nullable(),
  refs: z.array(NotesRefSchema),
  /** Where Squad keeps its state; absent when the repository could not be read. */
  stateBackend: SquadStateBackendSchema.optional(),
  /** Files on the state branch (`promoted/...`, `archive/...`, `decisions.md`), when there is one. */
  stateFiles: z.number().int().optional(),
  /** Commits with notes, newest first. */
  commits: z.array(NotedCommitSchema),
  findings: z.array(NoteFindingSchema),
  counts: z.object({
    notes: z.number().int(),
    bodies: z.number().int(),
    commits: z.number().int(),
    errors: z.number().int(),
    warnings: z.number().int()
  })
})
export type NotesSnapshot = z.infer<typeof NotesSnapshotSchema>
