/**
 * The patch part of the contract (spec/hub-logstream.md section 5): the inbox of `patch.ready`
 * events, verification, the preconditions and run of an explicit Apply (check, apply, tests, ack),
 * revert, submitting a patch to an agent, per-project test commands, and the audit. Hub selection
 * is the hub methods' (`hub` name or `palace` folder); writes are made as the operator.
 */
import { z } from 'zod'
import { ProjectName } from './fleet'
import { HubEventSchema } from './hub-types'
import { ArtifactRecordFields, HubRef, HubSelector } from './hub'
import {
  ApplyRunSchema,
  AuditEntrySchema,
  PatchCountsSchema,
  PatchFileSchema,
  PatchSummarySchema,
  PreflightSchema,
  VerificationSchema
} from './patch-types'

export * from './patch-types'

const Id = z.string().trim().min(1).max(200)
/** A shell command line (the project's test command). */
const Command = z.string().trim().min(1, 'the test command is empty').max(4096)
/** Test timeouts: a second to six hours. */
const TestTimeout = z
  .number()
  .int()
  .min(1000)
  .max(6 * 3600 * 1000)

/** Methods on patches. */
export const patchMethods = {
  /** The newest `patch.ready` events (at most 500) with their state and verdict. */
  'patch.list': {
    input: HubSelector.extend({ limit: z.number().int().min(1).max(500).optional() }).strict(),
    output: z.object({ ...HubRef, patches: z.array(PatchSummarySchema), counts: PatchCountsSchema, truncated: z.boolean() })
  },
  /** One patch: summary, verification, exact content, the audit and the apply runs. */
  'patch.get': {
    input: HubSelector.extend({ id: Id, project: ProjectName.optional() }).strict(),
    output: z.object({
      ...HubRef,
      summary: PatchSummarySchema,
      verification: VerificationSchema,
      content: z.string().nullable(),
      audit: z.array(AuditEntrySchema),
      runs: z.array(ApplyRunSchema)
    })
  },
  /** Verifies a patch again and records the decision. */
  'patch.verify': {
    input: HubSelector.extend({ id: Id, project: ProjectName.optional() }).strict(),
    output: z.object({ ...HubRef, verification: VerificationSchema })
  },
  /** The project an apply would use and every precondition, checked now. */
  'patch.preflight': {
    input: HubSelector.extend({ id: Id, project: ProjectName.optional(), allow_dirty: z.boolean().optional() }).strict(),
    output: PreflightSchema.extend(HubRef)
  },
  /**
   * Starts an apply (check, apply, optional tests, ack); progress comes as `patch.run` / `patch.output`
   * pushes. The test command is the project's stored one (`patch.setSettings`, audited): a caller
   * cannot hand the apply a command of its own.
   */
  'patch.apply': {
    input: HubSelector.extend({
      id: Id,
      project: ProjectName,
      test_timeout_ms: TestTimeout.optional(),
      three_way: z.boolean().optional(),
      allow_dirty: z.boolean().optional()
    }).strict(),
    output: ApplyRunSchema
  },
  /** An apply run as it stands (with the tail of its test output). */
  'patch.run': { input: z.object({ id: Id }).strict(), output: ApplyRunSchema },
  /** Stops a running test command (the run then acks `failed`). */
  'patch.cancel': { input: z.object({ id: Id }).strict(), output: ApplyRunSchema },
  /** Puts the worktree back as it was before the apply. */
  'patch.revert': {
    input: z.object({ id: Id }).strict(),
    output: z.object({ run: ApplyRunSchema, restored: z.array(z.string()), untouched: z.array(z.string()) })
  },
  /** Commits what an applied run changed (the patch's paths only; the agent as author; a message from the patch and its task, or `message`). */
  'patch.commit': {
    input: z.object({ id: Id, message: z.string().max(10_000).optional() }).strict(),
    output: z.object({ run: ApplyRunSchema, commit: z.string(), message: z.string(), author: z.string() })
  },
  /**
   * Sends a patch to an agent, stored byte-exactly: `content`, or with `from_worktree` the
   * working-tree diff of `project` (whose stream, branch and HEAD are then the defaults).
   */
  'patch.submit': {
    input: HubSelector.extend({
      project: ProjectName.optional(),
      from_worktree: z.boolean().optional(),
      content: z
        .string()
        .max(8 * 1024 * 1024)
        .optional(),
      to_agent: z.string().trim().min(1).max(256),
      correlation_id: z.string().max(256).optional(),
      stream: z.string().max(256).optional(),
      topic: z.string().max(256).optional(),
      branch: z.string().max(256).optional(),
      base_commit: z.string().max(256).optional(),
      body: z
        .string()
        .max(256 * 1024)
        .optional()
    }).strict(),
    output: z.object({
      ...HubRef,
      // the artifact record as mempalace_patch_submit returns it (warnings always present here)
      artifact: z.object({
        ...ArtifactRecordFields,
        origin_replica: z.string().nullable(),
        warnings: z.array(z.string())
      }),
      event: HubEventSchema
    })
  },
  /** A project's working-tree diff against HEAD (what `patch.submit` with `project` sends). */
  'patch.worktreeDiff': {
    input: z.object({ project: ProjectName }).strict(),
    output: z.object({
      project: z.string(),
      repo: z.string(),
      head: z.string().nullable(),
      branch: z.string().nullable(),
      content: z.string(),
      size_bytes: z.number().int(),
      files: z.array(PatchFileSchema),
      warnings: z.array(z.string()),
      problem: z.string().nullable()
    })
  },
  /** Audited decisions for one patch (`event_id`) or one thread (`correlation_id`). */
  'patch.audit': {
    input: HubSelector.extend({ event_id: Id.optional(), correlation_id: Id.optional() }).strict(),
    output: z.object({ ...HubRef, entries: z.array(AuditEntrySchema) })
  },
  /** Stores an artifact's exact content as the operator; patch warnings reported (`muster artifact put` names its writer with --created-by and calls the hub service). */
  'artifact.put': {
    input: HubSelector.extend({
      kind: z.string().trim().min(1).max(64),
      content: z.string().max(8 * 1024 * 1024),
      metadata: z.record(z.string(), z.unknown()).nullable().optional()
    }).strict(),
    output: z.object({
      ...HubRef,
      artifact: z.object({
        ...ArtifactRecordFields,
        warnings: z.array(z.string())
      })
    })
  },
  /** A project's test command and timeout. */
  'patch.settings': {
    input: z.object({ project: ProjectName }).strict(),
    output: z.object({ project: z.string(), test_command: z.string().nullable(), test_timeout_ms: z.number().int() })
  },
  'patch.setSettings': {
    input: z.object({ project: ProjectName, test_command: Command.nullable(), test_timeout_ms: TestTimeout.optional() }).strict(),
    output: z.object({ project: z.string(), test_command: z.string().nullable(), test_timeout_ms: z.number().int() })
  }
} as const

/** Events pushed while a patch is applied. */
export const patchEvents = {
  /** An apply run changed phase or finished. */
  'patch.run': ApplyRunSchema,
  /** Test output as it is printed (stdout and stderr interleaved). */
  'patch.output': z.object({ id: z.string(), text: z.string() })
} as const
