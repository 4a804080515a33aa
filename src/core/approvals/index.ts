/**
 * The approvals domain's face: pending tool calls of every harness, the operator's decisions, the
 * allowlist, and the `approve-hook` that harnesses run. Code outside src/core/approvals imports only this.
 */
export { AllowlistStore } from './allowlist-store'
export { decisionAppend, requestAppend } from './approval-events'
export { ApprovalsService } from './approvals-service'
export { DEFAULT_HOOK_TIMEOUT_MS, MAX_HOOK_TIMEOUT_MS, runApproveHook } from './approve-hook'
export { openHookContext } from './hook-env'
export { MAX_HOOK_INPUT_BYTES } from './hook-input'
export { DEFAULT_PRE_TOOL_MATCHER, HARNESS_DEFAULTS, installHook, shellQuote, uninstallHook, type HarnessName } from './hook-install'
