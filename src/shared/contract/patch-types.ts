/**
 * Data types of the patch part of the contract (spec/hub-logstream.md section 5): a patch's
 * verification (sha256, size, quoted shas, upstream warnings, Muster's findings, its files), its
 * state in the inbox, the preconditions of an apply, an apply run with its live output, and the
 * audit of every verify / apply / ack decision.
 */
import { z } from 'zod'
import { HubEventSchema } from './hub-types'
import { PATCH_STATES } from './hub-vocabulary'

export const PatchStateSchema = z.enum(PATCH_STATES)

/** How a file changes in a patch. */
export const PatchFileSchema = z.object({
  /** Path before (null for an added file). */
  old_path: z.string().nullable(),
  /** Path after (null for a deleted file). */
  new_path: z.string().nullable(),
  status: z.enum(['added', 'deleted', 'modified', 'renamed', 'copied', 'mode']),
  /** A `GIT binary patch` or "Binary files ... differ" section. */
  binary: z.boolean(),
  additions: z.number().int(),
  deletions: z.number().int()
})
export type PatchFile = z.infer<typeof PatchFileSchema>

/** Codes of Muster's own findings (besides upstream's two warnings). */
export const FINDING_CODES = [
  'sha256-mismatch',
  'size-mismatch',
  'quoted-sha-mismatch',
  'artifact-missing',
  'no-patch-artifact',
  'several-patch-artifacts',
  'not-a-patch',
  'path-outside-repo',
  'binary',
  'too-large',
  'missing-at-base',
  'base-unknown',
  'unparsed',
  'symlink'
] as const
export const PatchFindingSchema = z.object({
  code: z.enum(FINDING_CODES),
  /** `error` refuses the apply; `warning` is shown; `info` is context. */
  level: z.enum(['error', 'warning', 'info']),
  message: z.string(),
  path: z.string().nullable()
})
export type PatchFinding = z.infer<typeof PatchFindingSchema>

/** A sha256 the sender quoted in the event body or metadata. */
export const QuotedShaSchema = z.object({
  where: z.enum(['body', 'metadata']),
  /** The metadata key path (`sha256`, `artifact.sha256`), or the body line number (1-based). */
  at: z.string(),
  sha256: z.string(),
  /** It equals the sha256 of the artifact's bytes. */
  ok: z.boolean()
})
export type QuotedSha = z.infer<typeof QuotedShaSchema>

/** Everything Muster checked about one patch artifact. */
export const VerificationSchema = z.object({
  event_id: z.string(),
  artifact_id: z.string().nullable(),
  /** ok = nothing to say; warnings = shown, Apply allowed; refused = Apply disabled. */
  verdict: z.enum(['ok', 'warnings', 'refused']),
  /** One line per reason Apply is refused. */
  refused: z.array(z.string()),
  sha256: z.object({ stored: z.string().nullable(), computed: z.string().nullable(), ok: z.boolean() }),
  size: z.object({ stored: z.number().int().nullable(), actual: z.number().int().nullable(), ok: z.boolean() }),
  quoted: z.array(QuotedShaSchema),
  /** Upstream's advisory warnings, word for word. */
  warnings: z.array(z.string()),
  findings: z.array(PatchFindingSchema),
  files: z.array(PatchFileSchema),
  /** The project whose repository the base-commit checks ran in, if any. */
  checked_in: z.string().nullable(),
  checked_at: z.string()
})
export type Verification = z.infer<typeof VerificationSchema>

/** One patch in the inbox. */
export const PatchSummarySchema = z.object({
  event: HubEventSchema,
  artifact_id: z.string().nullable(),
  size_bytes: z.number().int().nullable(),
  /** The registered project the stream names (`project/<slug>`), if any. */
  project: z.string().nullable(),
  state: PatchStateSchema,
  /** Why it is in that state, one line. */
  state_reason: z.string(),
  /** The ack (or newer patch) that set the state, if any. */
  state_event_id: z.string().nullable(),
  state_by: z.string().nullable(),
  state_at: z.string().nullable(),
  /**
   * True when Muster's own rule set the state, not a hub event: `superseded` because the same
   * sender posted a newer patch in the thread (upstream has no such rule), or `refused` by
   * Muster's verification. The UI labels such a state as Muster's view.
   */
  state_by_muster: z.boolean(),
  verdict: z.enum(['ok', 'warnings', 'refused']),
  /** Upstream warnings plus warning-level findings. */
  warning_count: z.number().int(),
  file_count: z.number().int(),
  additions: z.number().int(),
  deletions: z.number().int()
})
export type PatchSummary = z.infer<typeof PatchSummarySchema>

/** One precondition of an apply. */
export const PreconditionSchema = z.object({
  id: z.enum(['repository', 'clean', 'head', 'branch', 'base', 'verified', 'not-applied', 'test']),
  /** ok / warn (shown, allowed) / fail (blocks the apply). */
  level: z.enum(['ok', 'warn', 'fail']),
  label: z.string(),
  detail: z.string()
})
export type Precondition = z.infer<typeof PreconditionSchema>

/** What the operator sees before clicking Apply. */
export const PreflightSchema = z.object({
  event_id: z.string(),
  /** The chosen project (the one asked for, else the one the stream or branch names), or null. */
  project: z.string().nullable(),
  /** Why this project was chosen ("stream project/dya", "branch fix/x exists"...). */
  project_reason: z.string(),
  /** Every registered project, the matching ones first. */
  candidates: z.array(z.object({ name: z.string(), path: z.string(), matches: z.array(z.string()) })),
  repo: z.string().nullable(),
  head: z.object({ commit: z.string().nullable(), branch: z.string().nullable() }).nullable(),
  preconditions: z.array(PreconditionSchema),
  /** The project's configured test command (null: none). */
  test_command: z.string().nullable(),
  test_timeout_ms: z.number().int(),
  /** True when every `fail` precondition passes (dirty may be overridden). */
  can_apply: z.boolean()
})
export type Preflight = z.infer<typeof PreflightSchema>

/** Phases of an apply run. */
export const APPLY_PHASES = ['checking', 'applying', 'testing', 'acking', 'done'] as const
/** Outcomes of an apply run. */
export const ApplyOutcomeSchema = z.enum(['running', 'applied', 'failed', 'refused'])

/** One apply run: its steps, live test output (tail), result, ack and revert. */
export const ApplyRunSchema = z.object({
  id: z.string(),
  hub: z.string(),
  event_id: z.string(),
  artifact_id: z.string().nullable(),
  project: z.string(),
  repo: z.string(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  phase: z.enum(APPLY_PHASES),
  outcome: ApplyOutcomeSchema,
  /** One line: why it failed or was refused. */
  reason: z.string().nullable(),
  check: z.object({ ok: z.boolean(), code: z.number().int(), output: z.string(), command: z.string() }).nullable(),
  applied: z.boolean(),
  test: z
    .object({
      command: z.string(),
      status: z.enum(['running', 'passed', 'failed', 'timed-out', 'cancelled', 'error']),
      exit_code: z.number().int().nullable(),
      duration_ms: z.number().int().nullable(),
      /** The last lines of stdout and stderr together, as printed. */
      tail: z.string()
    })
    .nullable(),
  head_before: z.string().nullable(),
  head_after: z.string().nullable(),
  ack_event_id: z.string().nullable(),
  ack_error: z.string().nullable(),
  /** The evidence posted as the ack body. */
  evidence: z.string().nullable(),
  /** A revert can put the worktree back as it was before the apply. */
  revertable: z.boolean(),
  reverted_at: z.string().nullable(),
  /**
   * How many times the record changed (0 when it starts). Pushes and call results can arrive out
   * of order: a copy with a lower revision is older and never replaces a newer one.
   */
  revision: z.number().int().nonnegative()
})
export type ApplyRun = z.infer<typeof ApplyRunSchema>

/** One audited decision. */
export const AuditEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  hub: z.string(),
  event_id: z.string(),
  correlation_id: z.string().nullable(),
  action: z.enum(['verify', 'apply', 'test', 'ack', 'revert', 'commit', 'submit', 'refuse', 'settings']),
  outcome: z.string(),
  actor: z.string(),
  project: z.string().nullable(),
  summary: z.string(),
  apply_id: z.string().nullable()
})
export type AuditEntry = z.infer<typeof AuditEntrySchema>

/** Patch counts per state. */
export const PatchCountsSchema = z.object({
  waiting: z.number().int(),
  applied: z.number().int(),
  failed: z.number().int(),
  superseded: z.number().int(),
  refused: z.number().int(),
  total: z.number().int()
})
export type PatchCounts = z.infer<typeof PatchCountsSchema>
