/**
 * The invocation-protocol part of the contract (spec/notes-and-invocations.md B): check one
 * invocation against the four hard rules, and the findings of every tagged text in the fleet
 * (role files, directive bodies inside them, hub event bodies).
 */
import { z } from 'zod'
import { ProjectName } from './fleet'

/** What a finding is about: a rule of the protocol, or how a tag was written. */
export const ChainRuleSchema = z.enum([
  'self',
  'depth',
  'circular',
  'isolation',
  'broadcast',
  'unknown-role',
  'sibling-chain',
  'no-assumption',
  'response-format'
])
export type ChainRule = z.infer<typeof ChainRuleSchema>

/** Where a tagged text lives. */
export const ChainSourceSchema = z.object({
  kind: z.enum(['role', 'event']),
  project: z.string().nullable(),
  /** Role file name (`build.md`) for role files. */
  file: z.string().nullable(),
  role: z.string().nullable(),
  /** Hub name and event id for event bodies. */
  hub: z.string().nullable(),
  eventId: z.string().nullable(),
  from: z.string().nullable()
})
export type ChainSource = z.infer<typeof ChainSourceSchema>

/** One finding: the rule, the chain as the rules saw it, and the `[BLOCKED: ...]` line to use when blocked. */
export const ChainFindingSchema = z.object({
  level: z.enum(['error', 'warning']),
  rule: ChainRuleSchema,
  line: z.number().int(),
  /** The chain before the target (the invoker last). */
  chain: z.array(z.string()),
  /** The chain as written in the text, when it differs (carried or sibling forms). */
  written: z.array(z.string()).nullable(),
  target: z.string().nullable(),
  phase: z.number().int().nullable(),
  message: z.string(),
  blocked: z.string().nullable(),
  source: ChainSourceSchema
})
export type ChainFinding = z.infer<typeof ChainFindingSchema>

/** Methods of the invocation protocol. */
export const invokeMethods = {
  /** `muster chain check`: is invoking `target` after `chain` allowed? */
  'invoke.check': {
    input: z
      .object({
        /** `cro → cfo`, `CRO->CFO`, `cro→cfo` (empty: the target is the first call). */
        chain: z.string().max(500),
        target: z.string().trim().min(1, 'target is required').max(40),
        phase: z.union([z.literal(1), z.literal(2), z.literal(3)]).optional(),
        /** The invoking agent when not the chain's last role (e.g. executive-mentor). */
        caller: z.string().trim().min(1).max(40).optional()
      })
      .strict(),
    output: z.object({
      allowed: z.boolean(),
      rule: ChainRuleSchema.nullable(),
      reason: z.string().nullable(),
      chain: z.array(z.string()),
      target: z.string(),
      /** Unknown roles in the chain or target (the check still runs). */
      warnings: z.array(z.string()),
      blocked: z.string().nullable(),
      assumption: z.string().nullable()
    })
  },
  /** Every finding in the fleet's role files and hub event bodies (the last 500 tagged events per hub). */
  'invoke.findings': {
    input: z.object({ project: ProjectName.optional() }).strict(),
    output: z.object({
      findings: z.array(ChainFindingSchema),
      /** Role files read, and tagged event bodies read. */
      scanned: z.object({ roleFiles: z.number().int(), events: z.number().int() }),
      errors: z.number().int(),
      warnings: z.number().int()
    })
  }
} as const
