/**
 * The needs-you part of the contract: one queue of everything waiting on the operator (the single
 * source for the Overview, the sidebar badge, the window title, notifications and `muster needs`)
 * and the push that tells every view it changed.
 */
import { z } from 'zod'
import { HubSelector } from './hub'
import { NeedKindSchema, NeedsChangedSchema, NeedsListSchema } from './needs-types'

export * from './needs-types'

/** Methods of the needs-you queue. */
export const needsMethods = {
  /** The queue, ranked by waiting time (longest first): every known hub and the fleet, or one hub (`hub`/`palace`). */
  'needs.list': {
    input: HubSelector.extend({ kind: z.array(NeedKindSchema).max(10).optional() }).strict(),
    output: NeedsListSchema
  }
} as const

/** Events of the needs-you queue. */
export const needsEvents = {
  /** The queue changed (pushed by a watching service only when its items did). */
  'needs.changed': NeedsChangedSchema
} as const
