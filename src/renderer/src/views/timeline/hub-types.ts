/** The hub shapes the timeline renders, named once so the views follow the contract. */
import type { HubEventEnvelope } from '../../../../shared/api'

/** An event as `hub.list` returns it (body possibly cut to 200 characters by `preview`). */
export type TimelineEvent = HubEventEnvelope
