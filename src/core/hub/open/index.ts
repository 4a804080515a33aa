/**
 * The hub opener's face: one hub port by location (palace folder or server URL), and the hub
 * `chooseHub` picks, opened alone, for callers without the hub service (the approve-hook, the
 * session hook's worker, the spool's drainer). Entries use the hub service.
 */
export { openHub, type AppendAndWait } from './open-hub'
export { openChosenHub, type OpenedChoice } from './chosen-hub'
