/**
 * The needs-you domain's public face: the queue of everything waiting on the operator (its
 * service, the per-kind item builders other domains may reuse) and the agent overlay that makes
 * the Overview's "needs me" agree with it.
 */
export { NeedsService, NEEDS_DEBOUNCE_MS, NEEDS_TICK_MS, type NeedsSources } from './needs-service'
export { answersFor, directiveDate, oneLine } from './need-items'
export { overlayNeeds } from './agent-overlay'
