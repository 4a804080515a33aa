/**
 * The fleet part of the contract: app info, project registry, overview status, demo, settings.
 */
import { z } from 'zod'
import { AppInfoSchema, ProjectSchema, ProjectStatusSchema, SettingsSchema } from './fleet-types'

/** A method without input. */
export const Empty = z.object({}).strict()
/** A registered project's name. */
export const ProjectName = z.string().trim().min(1, 'project name is required').max(128)
/** A folder path given by the user. */
export const FolderPath = z.string().trim().min(1, 'path is required').max(4096)

/** Methods of the fleet: app info, project registry, overview status, demo, settings. */
export const fleetMethods = {
  'app.info': { input: Empty, output: AppInfoSchema },
  'projects.list': { input: Empty, output: z.array(ProjectSchema) },
  'projects.add': {
    input: z.object({ path: FolderPath, name: ProjectName.optional() }).strict(),
    output: ProjectSchema
  },
  /** Changes a project's key (the PROJECT of PROJECT/ROLE directive targets). */
  'projects.setKey': {
    input: z.object({ name: ProjectName, key: z.string().trim().min(1, 'key is required').max(64) }).strict(),
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

/** Events pushed by the fleet watcher and the registry. */
export const fleetEvents = {
  /** Files of a project changed on disk (role files, memory, or the folder itself). */
  'fleet.changed': z.object({ project: z.string(), paths: z.array(z.string()), at: z.string() }),
  /** The set of registered projects changed. */
  'projects.changed': z.object({ at: z.string() }),
  /** Settings changed (from another window or the CLI). */
  'settings.changed': SettingsSchema
} as const
