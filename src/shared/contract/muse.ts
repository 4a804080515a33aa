/**
 * The MUSE part of the contract: directives, role files, memory, lint (spec/muse-role-files.md).
 * Parsed shapes are declared here once; the core parser returns exactly these types.
 */
import { z } from 'zod'
import { ProjectName } from './fleet'
import { L0Schema, SizeLevelSchema } from './fleet-types'
import { DIRECTIVE_ID_RE, MAX_DIRECTIVE_ID_CHARS } from '../directive-id'

/** A role name as typed by the operator (`build`, `QA`); path-like names are refused by the core. */
export const RoleName = z.string().trim().min(1, 'role is required').max(64)
/** A directive target: `ROLE`, `PROJECT/ROLE` or `ALL` (case-insensitive on input). */
export const TargetText = z.string().trim().min(1, 'target is required').max(130)
/** A directive id: `S` + 2-4 digits + optional suffix (`S041`, `S040v3`, `S229+`), bounded (`shared/directive-id.ts`). */
export const DirectiveId = z
  .string()
  .trim()
  .max(MAX_DIRECTIVE_ID_CHARS, `directive id must be at most ${MAX_DIRECTIVE_ID_CHARS} characters`)
  .regex(DIRECTIVE_ID_RE, 'directive id must look like S042 (S + 2-4 digits, optional suffix of up to 11 characters)')

/** Meaning of a header (spec section 3); `directive`/`notice` when the header itself is one. */
export const SectionKindSchema = z.enum([
  'boundaries',
  'todo',
  'received',
  'notices',
  'outgoing',
  'techStack',
  'changelogRules',
  'directive',
  'notice',
  'other'
])
export type SectionKind = z.infer<typeof SectionKindSchema>

/** One markdown header outside code fences. Lines are 1-based; `endLine` is the section's last line. */
export const RoleSectionSchema = z.object({
  level: z.number().int(),
  title: z.string(),
  kind: SectionKindSchema,
  line: z.number().int(),
  endLine: z.number().int()
})
export type RoleSection = z.infer<typeof RoleSectionSchema>

/** A `- [ ]` / `- [x]` item under a TODO header (`[/]` counts as open, in progress). */
export const TodoItemSchema = z.object({ text: z.string(), done: z.boolean(), line: z.number().int(), group: z.string().nullable() })
export type TodoItem = z.infer<typeof TodoItemSchema>

/** TODO progress of a file, overall and per sub-header group (`#### P0 — 近期`). */
export const TodoProgressSchema = z.object({
  open: z.number().int(),
  done: z.number().int(),
  groups: z.array(z.object({ group: z.string().nullable(), open: z.number().int(), done: z.number().int() })),
  items: z.array(TodoItemSchema)
})
export type TodoProgress = z.infer<typeof TodoProgressSchema>

/** Status emoji on a directive or notice: 🟡 pending, ✅ done, 🚫 skipped, 🔒 frozen, 🟢 active, or none written. */
export const DirectiveMarkSchema = z.enum(['pending', 'done', 'skipped', 'frozen', 'active', 'none'])
export type DirectiveMark = z.infer<typeof DirectiveMarkSchema>

/** One directive as written in one file, in one of the forms of spec section 4. */
export const DirectiveOccurrenceSchema = z.object({
  /** SPEC, HEAD, LOOSE (spec section 4); ROW and ANNOUNCE as real files write them (docs/muse-directive-forms.md). */
  form: z.enum(['spec', 'head', 'loose', 'row', 'announce']),
  id: z.string(),
  /** Target as written, upper-cased (`MUSE/BUILD`, `QA`, `ALL`); '' when none is written (a row or announcement: the file's own role). */
  target: z.string(),
  mark: DirectiveMarkSchema,
  /** Text after the status emoji (`已接收 3/14 16:00`), or ''. */
  statusText: z.string(),
  title: z.string(),
  body: z.string(),
  /** Date text as written (`3/13`, `2026-12-02 19:20`), or null. */
  date: z.string().nullable(),
  line: z.number().int(),
  endLine: z.number().int(),
  role: z.string(),
  file: z.string(),
  /** Title of the enclosing section header, or null. */
  section: z.string().nullable(),
  /** Kind of the enclosing section. */
  sectionKind: SectionKindSchema
})
export type DirectiveOccurrence = z.infer<typeof DirectiveOccurrenceSchema>

/** A cross-role notice header (`### 📡 QA→BUILD 通知 (date)`) with its trailing status line. */
export const NoticeSchema = z.object({
  from: z.string(),
  to: z.string(),
  date: z.string(),
  mark: DirectiveMarkSchema,
  statusText: z.string(),
  title: z.string(),
  body: z.string(),
  line: z.number().int(),
  endLine: z.number().int(),
  role: z.string(),
  file: z.string(),
  section: z.string().nullable()
})
export type Notice = z.infer<typeof NoticeSchema>

/** Where a target points: one role file of one project, every project, or nothing. */
export const ResolutionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('role'), project: z.string(), key: z.string(), role: z.string(), file: z.string() }),
  z.object({ kind: z.literal('all') }),
  z.object({ kind: z.literal('unresolved'), reason: z.string() })
])
export type Resolution = z.infer<typeof ResolutionSchema>

/**
 * Cross-project state: 🟡 at source and no receipt; receipt at target; ✅ at source; no mark
 * anywhere; or what a 🚫 (skipped), 🔒 (frozen) or 🟢 (active) mark says, the target's first.
 */
export const DirectiveStateSchema = z.enum(['pending', 'received', 'delivered', 'skipped', 'frozen', 'active', 'untracked'])
export type DirectiveState = z.infer<typeof DirectiveStateSchema>

/** A directive occurrence with the project it was found in. */
export const LocatedOccurrenceSchema = DirectiveOccurrenceSchema.extend({ project: z.string() })
export type LocatedOccurrence = z.infer<typeof LocatedOccurrenceSchema>

/** One logical directive keyed by (id, resolved target), with every place it appears. */
export const DirectiveSchema = z.object({
  key: z.string(),
  id: z.string(),
  target: z.string(),
  resolution: ResolutionSchema,
  state: DirectiveStateSchema,
  title: z.string(),
  /** The sender-side occurrence (null when only a receipt was found). */
  source: LocatedOccurrenceSchema.nullable(),
  /** The receipt in the target's file, if any. */
  receipt: LocatedOccurrenceSchema.nullable(),
  occurrences: z.array(LocatedOccurrenceSchema)
})
export type Directive = z.infer<typeof DirectiveSchema>

/** A role file in a project listing. */
export const RoleSummarySchema = z.object({
  role: z.string(),
  file: z.string(),
  l0: L0Schema.nullable(),
  lines: z.number().int(),
  sizeLevel: SizeLevelSchema,
  pendingDirectives: z.number().int(),
  openTodos: z.number().int(),
  doneTodos: z.number().int()
})
export type RoleSummary = z.infer<typeof RoleSummarySchema>

/** One role file read in full and parsed. */
export const RoleDetailSchema = RoleSummarySchema.extend({
  project: z.string(),
  text: z.string(),
  sections: z.array(RoleSectionSchema),
  todos: TodoProgressSchema,
  directives: z.array(DirectiveOccurrenceSchema),
  notices: z.array(NoticeSchema)
})
export type RoleDetail = z.infer<typeof RoleDetailSchema>

/** A lint finding; `code` is stable for the UI, `message` is for people. */
export const LintFindingSchema = z.object({
  level: z.enum(['error', 'warning']),
  code: z.enum([
    'no-l0',
    'l0-long',
    'l0-stale',
    'file-long',
    'file-too-long',
    'paths-malformed',
    'unresolved-target',
    'duplicate-pending',
    'after-footer',
    'unmatched-directive',
    'unreadable',
    'symlink-outside',
    'leftover-write'
  ]),
  project: z.string(),
  role: z.string().nullable(),
  file: z.string().nullable(),
  line: z.number().int().nullable(),
  message: z.string()
})
export type LintFinding = z.infer<typeof LintFindingSchema>

/** A memory search hit. */
export const MemoryHitSchema = z.object({
  project: z.string(),
  file: z.string(),
  line: z.number().int(),
  date: z.string().nullable(),
  kind: z.string().nullable(),
  text: z.string(),
  score: z.number()
})
export type MemoryHit = z.infer<typeof MemoryHitSchema>

/** How the hub project (holder of the global strategy.md) was found. */
export const MuseHubSchema = z.object({
  project: z.string().nullable(),
  source: z.enum(['operator', 'paths.md', 'CLAUDE.md', 'strategy.md', 'only-project', 'none'])
})
export type MuseHub = z.infer<typeof MuseHubSchema>

/** A send kept beside its role file because other writers kept dropping it (`.<file>.muster-lost-<pid>-<hex>`). */
export const KeptEditSchema = z.object({
  project: z.string(),
  role: z.string(),
  /** The role file it belongs to (`BUILD.md`). */
  file: z.string(),
  /** The kept copy's own name in `.muse/`. */
  name: z.string(),
  /** When it was kept (the copy's mtime, ISO). */
  since: z.string(),
  /** How many of its lines the role file lacks (0: merged already; merging deletes the copy). */
  missing: z.number().int(),
  /** The first of those lines, as a merge would put them back. */
  preview: z.array(z.string())
})
export type KeptEdit = z.infer<typeof KeptEditSchema>

/** A kept copy named by the operator. */
const KeptName = z.string().min(1).max(300)

/** Methods on role files, directives and memory. */
export const museMethods = {
  'muse.roles': {
    input: z.object({ project: ProjectName }).strict(),
    output: z.object({ project: z.string(), roles: z.array(RoleSummarySchema) })
  },
  'muse.role': { input: z.object({ project: ProjectName, role: RoleName }).strict(), output: RoleDetailSchema },
  /** Opens a role file in the operator's editor ($MUSTER_EDITOR, $VISUAL, $EDITOR or the OS opener). */
  'muse.openRole': {
    input: z.object({ project: ProjectName, role: RoleName, line: z.number().int().min(1).max(10_000_000).optional() }).strict(),
    output: z.object({ file: z.string(), command: z.string() })
  },
  'muse.directives': {
    input: z
      .object({
        state: DirectiveStateSchema.optional(),
        project: ProjectName.optional(),
        role: RoleName.optional(),
        target: TargetText.optional(),
        text: z.string().max(200).optional()
      })
      .strict(),
    output: z.object({
      hub: MuseHubSchema,
      directives: z.array(DirectiveSchema),
      notices: z.array(NoticeSchema.extend({ project: z.string() }))
    })
  },
  'muse.pickup': {
    input: z.object({ project: ProjectName, id: DirectiveId, target: TargetText }).strict(),
    output: z.object({
      id: z.string(),
      target: z.string(),
      /** What was written: both edits, only the source mark (half-finished pickup), or nothing. */
      outcome: z.enum(['picked-up', 'completed', 'already-done']),
      receiptFile: z.string(),
      sourceFile: z.string(),
      at: z.string()
    })
  },
  'muse.send': {
    input: z
      .object({
        project: ProjectName,
        from: RoleName,
        to: TargetText,
        title: z.string().trim().min(1, 'title is required').max(300),
        body: z.string().max(20_000),
        id: DirectiveId.optional(),
        /** Idempotency key: a retry with the same key writes nothing new and answers the same directive. */
        key: z.string().min(1).max(200).optional()
      })
      .strict(),
    output: z.object({ id: z.string(), target: z.string(), file: z.string(), line: z.number().int(), warnings: z.array(z.string()) })
  },
  'muse.memoryWrite': {
    input: z
      .object({
        project: ProjectName,
        section: z.string().trim().max(80).optional(),
        text: z.string().trim().min(1, 'text is required').max(20_000)
      })
      .strict(),
    output: z.object({ file: z.string(), line: z.number().int(), created: z.boolean() })
  },
  'muse.memorySearch': {
    input: z
      .object({
        project: ProjectName.optional(),
        query: z.string().trim().min(1, 'query is required').max(200),
        scope: z.enum(['all', 'recent', 'longterm']).default('all'),
        limit: z.number().int().min(1).max(500).default(50)
      })
      .strict(),
    output: z.object({ hits: z.array(MemoryHitSchema), mode: z.enum(['fts', 'like']) })
  },
  'muse.lint': {
    input: z.object({ project: ProjectName.optional() }).strict(),
    output: z.object({ findings: z.array(LintFindingSchema), errors: z.number().int(), warnings: z.number().int() })
  },
  /** The sends kept aside (of one project when given), oldest first. */
  'muse.kept': {
    input: z.object({ project: ProjectName.optional() }).strict(),
    output: z.object({ kept: z.array(KeptEditSchema) })
  },
  /** Puts a kept send back into its role file (a union merge: every line of the file stays), then deletes the copy. */
  'muse.keptMerge': {
    input: z.object({ project: ProjectName, name: KeptName }).strict(),
    output: z.object({ file: z.string(), restored: z.number().int() })
  },
  /** Deletes a kept copy without merging it. */
  'muse.keptDiscard': {
    input: z.object({ project: ProjectName, name: KeptName }).strict(),
    output: z.object({ file: z.string() })
  },
  'muse.hub': { input: z.object({}).strict(), output: MuseHubSchema },
  'muse.setHub': { input: z.object({ project: ProjectName.nullable() }).strict(), output: MuseHubSchema }
} as const

/** Events pushed about role files and memory. */
export const museEvents = {
  /** Muster itself wrote MUSE files (pickup, send, memory write). */
  'muse.written': z.object({ project: z.string(), files: z.array(z.string()), at: z.string() })
} as const
