/**
 * The fleet domain's face: Muster's home and state DB, the project registry, settings, file
 * watching and the status of projects. Code outside src/core/fleet imports only this.
 */
export { fleetStatus, fleetStatusAt } from './fleet-status'
export { defaultCliHome, resolveHome } from './home'
export { projectStampsNow, sameProjectStamps, settledAt, stampsHold, type ProjectStamps } from './project-stamps'
export { readProjectStatus } from './project-status'
export { ProjectRegistry } from './registry'
export { SettingsStore } from './settings'
export { storedOperatorId } from './settings-rows'
export { STATE_DB_FILE } from './state-file'
export { openStateDb, stateReadOnly, stateWriteError, unwritable } from './state-db'
export { dbStampsSettledAt, sameDbStamps, stateDbStampsNow, type DbFileStamp } from './state-db-stamps'
export { FleetWatcher } from './watcher'
