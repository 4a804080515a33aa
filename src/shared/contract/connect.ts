/**
 * The connect part of the contract: the harnesses on this machine with their gates and session
 * hooks (the Connect screen, `muster connect`), a one-step install or removal, and a test request
 * the operator answers in the inbox (nothing runs on either answer).
 */
import { z } from 'zod'
import { ConnectListSchema, ConnectResultSchema, ConnectTestSchema } from './connect-types'

export * from './connect-types'

/** A harness by its name (`claude`), id (`claude-code`) or alias. */
const HarnessName = z.string().min(1).max(64)

/** Methods of connecting agents. */
export const connectMethods = {
  /** Every harness Muster knows: found on PATH (with its version) or not, gate and session hooks installed, gate health. */
  'connect.list': { input: z.object({}).strict(), output: ConnectListSchema },
  /** Installs the approvals gate and the session hooks of one harness (the same edits as `approve-hook install` and `session-hook install`). */
  'connect.install': {
    input: z.object({ harness: HarnessName, agent: z.string().min(1).max(256).optional() }).strict(),
    output: ConnectResultSchema
  },
  /** Removes the approvals gate and the session hooks of one harness. */
  'connect.remove': { input: z.object({ harness: HarnessName }).strict(), output: ConnectResultSchema },
  /** Sends a test request, marked as one, from the harness's agent into the inbox: approving or denying it runs nothing. */
  'connect.test': { input: z.object({ harness: HarnessName }).strict(), output: ConnectTestSchema }
} as const
