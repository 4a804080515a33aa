/**
 * The one contract between Muster's core and every transport (Electron IPC, HTTP + SSE, tests).
 *
 * Each method has a runtime input schema (validated by every binding before the core sees it)
 * and an output schema (used by tests and by the HTTP client in development). Pushed events
 * are declared the same way. Nothing here may import Node or Electron: the renderer uses it too.
 */
import { z } from 'zod'

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
  error: z.string().nullable()
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

/** A project with its parsed role files: one card of the fleet overview. */
export const ProjectStatusSchema = ProjectSchema.extend({
  /** False when the folder or its `.muse/` is gone. */
  exists: z.boolean(),
  roles: z.array(RoleStatusSchema),
  /** ISO time of the newest change among the role files and memory logs, or null. */
  lastChangeAt: z.string().nullable(),
  /** Newest daily memory log file name (`YYYY-MM-DD.md`), or null. */
  lastMemoryLog: z.string().nullable(),
  /** Findings to show on the card: `no L0`, bloated files, missing folder. */
  findings: z.array(z.object({ level: SizeLevelSchema, role: z.string().nullable(), message: z.string() }))
})
export type ProjectStatus = z.infer<typeof ProjectStatusSchema>

/** What the app shell needs to know at start. */
export const AppInfoSchema = z.object({
  version: z.string(),
  home: z.string(),
  transport: z.enum(['ipc', 'http']),
  projectCount: z.number().int()
})
export type AppInfo = z.infer<typeof AppInfoSchema>

/** Settings the operator can change; stored in Muster's state DB. */
export const SettingsSchema = z.object({
  theme: z.enum(['system', 'light', 'dark']),
  /** The operator's agent id, validated like MemPalace's `--agent`. */
  operatorId: z
    .string()
    .max(256)
    .regex(/^[A-Za-z0-9._-]+$/, 'agent id must be a single token like desk-muster (machine-harness)')
})
export type Settings = z.infer<typeof SettingsSchema>

const Empty = z.object({}).strict()
const ProjectName = z.string().trim().min(1, 'project name is required').max(128)
const FolderPath = z.string().trim().min(1, 'path is required').max(4096)

/** Every request/response method: name -> input and output schemas. */
export const methods = {
  'app.info': { input: Empty, output: AppInfoSchema },
  'projects.list': { input: Empty, output: z.array(ProjectSchema) },
  'projects.add': {
    input: z.object({ path: FolderPath, name: ProjectName.optional() }).strict(),
    output: ProjectSchema
  },
  'projects.remove': { input: z.object({ name: ProjectName }).strict(), output: z.object({ removed: z.string() }) },
  'projects.scan': {
    input: z.object({ dir: FolderPath }).strict(),
    output: z.object({ added: z.array(ProjectSchema), skipped: z.array(z.object({ path: z.string(), reason: z.string() })) })
  },
  'fleet.status': {
    input: z.object({ project: ProjectName.optional() }).strict(),
    output: z.array(ProjectStatusSchema)
  },
  'demo.create': {
    input: z.object({ dir: FolderPath.optional() }).strict(),
    output: z.object({ dir: z.string(), projects: z.array(ProjectSchema), hub: z.string() })
  },
  'settings.get': { input: Empty, output: SettingsSchema },
  'settings.update': { input: SettingsSchema.partial().strict(), output: SettingsSchema }
} as const

/** Names of every request/response method. */
export type MethodName = keyof typeof methods
/** The input type of method M. */
export type MethodInput<M extends MethodName> = z.input<(typeof methods)[M]['input']>
/** The output type of method M. */
export type MethodOutput<M extends MethodName> = z.infer<(typeof methods)[M]['output']>

/** Every pushed event: name -> payload schema. */
export const events = {
  /** Files of a project changed on disk (role files, memory, or the folder itself). */
  'fleet.changed': z.object({ project: z.string(), paths: z.array(z.string()), at: z.string() }),
  /** The set of registered projects changed. */
  'projects.changed': z.object({ at: z.string() }),
  /** Settings changed (from another window or the CLI). */
  'settings.changed': SettingsSchema
} as const

/** Names of every pushed event. */
export type EventName = keyof typeof events
/** A pushed event as it travels: its name and its payload. */
export type PushedEvent = { [E in EventName]: { name: E; payload: z.infer<(typeof events)[E]> } }[EventName]

/** The typed client every UI uses, whatever the transport underneath. */
export interface MusterClient {
  call<M extends MethodName>(method: M, input: MethodInput<M>): Promise<MethodOutput<M>>
  /** Subscribes to pushed events; returns the unsubscribe function. */
  subscribe(listener: (event: PushedEvent) => void): () => void
}

/** True when `name` is one of the contract's methods (for bindings receiving untrusted names). */
export function isMethodName(name: unknown): name is MethodName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(methods, name)
}

/** Error payload every transport returns for a failed call. */
export interface ApiErrorBody {
  error: string
  code: ApiErrorCode
}

/** Coarse error categories, so the UI can tell bad input from a missing thing from a bug. */
export type ApiErrorCode = 'invalid_input' | 'not_found' | 'conflict' | 'forbidden' | 'internal'

/** An error with a code that crosses transports unchanged. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: ApiErrorCode = 'internal'
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

/** Validates a method's input, throwing an `invalid_input` ApiError with a one-line message. */
export function parseInput<M extends MethodName>(method: M, input: unknown): z.infer<(typeof methods)[M]['input']> {
  const result = methods[method].input.safeParse(input ?? {})
  if (!result.success) {
    const issue = result.error.issues[0]
    const where = issue && issue.path.length ? `${issue.path.join('.')}: ` : ''
    throw new ApiError(`invalid input for ${method}: ${where}${issue?.message ?? 'bad input'}`, 'invalid_input')
  }
  return result.data as z.infer<(typeof methods)[M]['input']>
}
