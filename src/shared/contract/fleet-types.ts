/**
 * Data types of the fleet overview: L0 lines, role files, projects, settings.
 */
import { z } from 'zod'
import { OPERATOR_ID_MAX, OPERATOR_ID_RE, OPERATOR_ROLE_MAX, OPERATOR_ROLE_RE, OPERATOR_ROLES_MAX, THEMES } from '../settings-rules'

/** A parsed `<!-- L0: ... -->` status line (spec/muse-role-files.md section 2). */
export const L0Schema = z.object({
  /** The whole first line as found (without BOM and line ending). */
  raw: z.string(),
  /** The text between `L0:` and `-->`, trimmed. */
  body: z.string(),
  version: z.string().nullable(),
  topPriority: z.string().nullable(),
  flags: z.array(z.string()),
  /** Body length in characters (code points); the spec allows at most 120. */
  length: z.number().int(),
  overLimit: z.boolean()
})
export type L0 = z.infer<typeof L0Schema>

/** Line-count severity of a role file: over 500 lines warns, over 800 is an error. */
export const SizeLevelSchema = z.enum(['ok', 'warning', 'error'])
export type SizeLevel = z.infer<typeof SizeLevelSchema>

/** One role file of a project, as the overview shows it. */
export const RoleStatusSchema = z.object({
  role: z.string(),
  file: z.string(),
  l0: L0Schema.nullable(),
  lines: z.number().int(),
  sizeBytes: z.number().int(),
  sizeLevel: SizeLevelSchema,
  modifiedAt: z.string(),
  /** Set when the file could not be read (permissions, vanished mid-read). */
  error: z.string().nullable(),
  /** Directives and notices in this file still marked 🟡. */
  pendingDirectives: z.number().int(),
  /** `- [ ]` items under the file's TODO headers, and `- [x]` ones. */
  openTodos: z.number().int(),
  doneTodos: z.number().int()
})
export type RoleStatus = z.infer<typeof RoleStatusSchema>

/** A registered project (a folder holding `.muse/`). */
export const ProjectSchema = z.object({
  name: z.string(),
  key: z.string(),
  path: z.string(),
  addedAt: z.string()
})
export type Project = z.infer<typeof ProjectSchema>

/** Machine-readable kind of an overview finding, so UIs can group and filter without parsing text. */
export const FindingCodeSchema = z.enum(['no-l0', 'l0-long', 'l0-stale', 'size', 'missing', 'unreadable', 'no-roles'])
export type FindingCode = z.infer<typeof FindingCodeSchema>

/** One finding shown on a project card (a lint result, not an app error). */
export const FindingSchema = z.object({
  code: FindingCodeSchema,
  level: SizeLevelSchema,
  role: z.string().nullable(),
  message: z.string()
})
export type Finding = z.infer<typeof FindingSchema>

/** A project with its parsed role files: one card of the fleet overview. */
export const ProjectStatusSchema = ProjectSchema.extend({
  /** False when the folder or its `.muse/` is gone. */
  exists: z.boolean(),
  roles: z.array(RoleStatusSchema),
  /** ISO time of the newest change among the role files and memory logs, or null. */
  lastChangeAt: z.string().nullable(),
  /** Newest daily memory log file name (`YYYY-MM-DD.md`), or null. */
  lastMemoryLog: z.string().nullable(),
  /** Sum over the role files: 🟡 directives and notices, open TODO items. */
  pendingDirectives: z.number().int(),
  openTodos: z.number().int(),
  /** Findings to show on the card: `no L0`, bloated files, missing folder. */
  findings: z.array(FindingSchema)
})
export type ProjectStatus = z.infer<typeof ProjectStatusSchema>

/** What the app shell needs to know at start. */
export const AppInfoSchema = z.object({
  version: z.string(),
  home: z.string(),
  transport: z.enum(['ipc', 'http', 'https']),
  projectCount: z.number().int()
})
export type AppInfo = z.infer<typeof AppInfoSchema>

/** Settings the operator can change; stored in Muster's state DB. */
export const SettingsSchema = z.object({
  theme: z.enum(THEMES),
  /** The operator's agent id, validated like MemPalace's `--agent`. */
  operatorId: z.string().max(OPERATOR_ID_MAX).regex(OPERATOR_ID_RE, 'agent id must be a single token like desk-muster (machine-harness)'),
  /**
   * Roles the operator answers for: directives pending for them join the needs-you queue. `GM`
   * (that role in every project) or `PROJECT/GM`.
   */
  operatorRoles: z
    .array(z.string().trim().min(1).max(OPERATOR_ROLE_MAX).regex(OPERATOR_ROLE_RE, 'a role is ROLE or PROJECT/ROLE, without spaces'))
    .max(OPERATOR_ROLES_MAX)
})
export type Settings = z.infer<typeof SettingsSchema>
