/**
 * The composition root's face: `openRoot({ home }).get(part)` is how every entry (Electron main,
 * `muster serve`, the CLI's commands, `approve-hook`, `muster mcp`, `muster status`) reaches the
 * core; `createService` is the contract's service on a root of its own (main, serve, tests).
 */
export { createService } from './create-service'
export { drainHookJobs } from './drain-hook-jobs'
export { openHookContext, openHookEntry, HOOK_LOCK_TIMEOUT_MS, type HookEnvOptions } from './hook'
export { NoStateDb, openRoot, type PartName, type Root, type RootOptions, type RootParts, type StateMode } from './root'
