/**
 * The gates part of the contract: every installed approvals gate's health (the Overview's panel,
 * `muster gates`), as last checked, and a check on demand.
 */
import { z } from 'zod'
import { GatesReportSchema } from './gates-types'

export * from './gates-types'

/** Methods of gate health. */
export const gatesMethods = {
  /** Every installed gate as last checked (cheap: the cached report; a check may be running). */
  'gates.list': { input: z.object({}).strict(), output: GatesReportSchema },
  /** Checks every gate now (processes, the hubs, the harnesses' trust records) and returns the report. */
  'gates.check': { input: z.object({}).strict(), output: GatesReportSchema }
} as const

/** Events of gate health. */
export const gatesEvents = {
  /** A check found a gate in another state than before (pushed by a watching service). */
  'gates.changed': z.object({ at: z.string() })
} as const
