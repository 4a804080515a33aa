/**
 * The squad-notes part of the contract (spec/notes-and-invocations.md A): read a project's notes
 * with findings, append a note in an agent's own namespace, and promote flagged notes.
 */
import { z } from 'zod'
import { ProjectName } from './fleet'
import { NOTE_TYPES, NotesSnapshotSchema, SquadNoteSchema, SquadStateBackendSchema } from './notes-types'

export * from './notes-types'

/** A notes ref as typed: `squad/<agent>` or `refs/notes/squad/<agent>` (checked again by the core). */
const NotesRef = z
  .string()
  .trim()
  .regex(/^(refs\/notes\/)?squad\/[A-Za-z0-9_\-./]+$/, 'ref must look like squad/<agent> (refs/notes/squad/<agent>)')
  .refine((r) => !r.includes('..'), 'ref must not contain ..')

/** An entry a promotion appends to decisions.md. */
export const PromotionEntrySchema = z.object({
  noteId: z.string(),
  ref: z.string(),
  commit: z.string(),
  title: z.string(),
  text: z.string()
})
/** A research note a promotion archives. */
export const PromotionArchiveSchema = z.object({
  noteId: z.string(),
  ref: z.string(),
  commit: z.string(),
  file: z.string(),
  text: z.string()
})

/** Methods on squad notes. */
export const notesMethods = {
  'notes.list': {
    input: z.object({ project: ProjectName, ref: NotesRef.optional() }).strict(),
    output: NotesSnapshotSchema
  },
  /** Appends a note as `agent`, in its own namespace (or the shared research/review). */
  'notes.write': {
    input: z
      .object({
        project: ProjectName,
        agent: z.string().trim().min(1, 'agent is required').max(64),
        type: z.enum(NOTE_TYPES, { message: `type must be one of ${NOTE_TYPES.join(', ')}` }),
        /** JSON: an object of note fields, or any other value stored as `content`. */
        content: z
          .string()
          .min(1, 'content is required')
          .max(64 * 1024),
        commit: z.string().trim().min(1).max(256).optional(),
        ref: NotesRef.optional()
      })
      .strict(),
    output: z.object({ project: z.string(), ref: z.string(), commit: z.string(), note: SquadNoteSchema })
  },
  /** Promotes flagged notes; `dryRun` returns the same plan and writes nothing. */
  'notes.promote': {
    input: z.object({ project: ProjectName, dryRun: z.boolean().default(false) }).strict(),
    output: z.object({
      project: z.string(),
      dryRun: z.boolean(),
      /** Relative to the repository root. */
      decisionsFile: z.string(),
      createsDecisions: z.boolean(),
      entries: z.array(PromotionEntrySchema),
      archives: z.array(PromotionArchiveSchema),
      alreadyPromoted: z.number().int(),
      alreadyArchived: z.number().int(),
      skipped: z.array(z.object({ noteId: z.string(), ref: z.string(), commit: z.string(), reason: z.string() })),
      /** Where Squad keeps its state: `local` (.squad/), or the orphan branch (`orphan`, `two-layer`). */
      stateBackend: SquadStateBackendSchema,
      /** Note ids actually written (empty on a dry run). */
      appended: z.array(z.string()),
      archived: z.array(z.string())
    })
  }
} as const

/** Events about notes. */
export const notesEvents = {
  /** A project's notes refs (or its branches) moved: notes were written, fetched or merged. */
  'notes.changed': z.object({ project: z.string(), at: z.string() })
} as const
