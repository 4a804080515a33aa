/**
 * The hub opener's face: one hub port by location (palace folder or server URL) and the hub a
 * `--hub` names, for callers without the hub service (the approve-hook). Entries use the hub service.
 */
export { openHub, type AppendAndWait } from './open-hub'
export { registeredHub } from './registered-hub'
