/**
 * The handlers' face: one handler map per part of the contract, used by the service.
 */
export { approvalHandlers } from './approvals'
export { connectHandlers } from './connect'
export { fleetHandlers } from './fleet'
export { hubHandlers } from './hub'
export { invokeHandlers } from './invoke'
export { museHandlers } from './muse'
export { needsHandlers } from './needs'
export { gatesHandlers } from './gates'
export { notesHandlers } from './notes'
export { patchHandlers } from './patches'
export { presenceHandlers } from './presence'
export { pushHandlers } from './push'
export { usageHandlers } from './usage'
