/**
 * The muse domain's face: MUSE role files (parse, digest, directives, pickup and send, memory,
 * lint) and their safe writes. Code outside src/core/muse imports only this.
 */
export { canonicalTarget, collectDirectives, normaliseTarget, resolveTarget } from './directive-index'
export { ymd, ymdhm } from './edits'
export { TAG_MARKERS, eventFindings, roleFileFindings, type TaggedEvent } from './fleet-chains'
export { RoleCache, readFleetView, scanProject, type FleetView } from './fleet-scan'
export { HUB_SETTING, asMarkedHub, detectHub } from './hub-project'
export { discardKept, keptEdits, mergeKept } from './kept-edits'
export { parseL0 } from './l0'
export { lintFleet } from './lint'
export { DAILY_LOG, appendMemory } from './memory-files'
export { searchMemory, syncMemoryIndex } from './memory-index'
export { editorCommand, launchEditor } from './open-in-editor'
export { DIGEST_VERSION } from './parse-cache'
export { parseRole, type RoleDigest } from './parse-role'
export { pickup } from './pickup'
export {
  LINE_ERROR,
  LINE_WARNING,
  countLines,
  entryPath,
  listRoleFiles,
  museDir,
  pendingAndTodos,
  readMuseListingNow,
  readRoleDir,
  roleName,
  roleStatusOf,
  sizeLevel,
  throughSwaps,
  unreadableRoleStatus
} from './role-files'
export { assertRoleName, findRoleFile, roleFile } from './role-path'
export { safeEdit, type SafeWriteHooks } from './safe-write'
export { stopMuseWork } from './stop-work'
export { lateWritesSettled } from './safe-write-keeper'
export { mtimeIso, syncScanFs, type ScanFs } from './scan-fs'
export { send } from './send'
export { SendKeys } from './send-keys'
