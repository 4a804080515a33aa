/**
 * The approvals domain's face: pending tool calls of every harness, the operator's decisions, the
 * allowlist, and the `approve-hook` that harnesses run. Code outside src/core/approvals imports only this.
 */
export { AllowlistStore, type RuleKeys, type SignedRule } from './allowlist-store'
export {
  MIRROR_FILE,
  allowlistedReason,
  firstMirroredMatch,
  readMirror,
  readMirrorFile,
  type Mirror,
  type MirroredRule
} from './allowlist-mirror'
export { decisionAppend, requestAppend } from './approval-events'
export { DecisionTrust, KEY_ID_RE, rulePayload, type DecisionSigner } from './decision-trust'
export { OperatorKeys, KEYS_DIR, trustedKeyIds, type KeyProtector, type TrustedKey } from './operator-keys'
export { ApprovalsService } from './approvals-service'
export { MAX_SNOOZE_MINUTES, SnoozeStore } from './snooze-store'
export {
  DEFAULT_HOOK_TIMEOUT_MS,
  MAX_HOOK_TIMEOUT_MS,
  askFor,
  recordAllowlisted,
  runApproveHook,
  type AllowingRule,
  type HookContext
} from './approve-hook'
export { claudeVersion } from './claude-version'
export {
  APPROVAL_EVENTS,
  CLAUDE_ON_FAILURE_SINCE,
  DEFAULT_PRE_TOOL_MATCHER,
  FILE_BASE,
  GEMINI_MATCHER,
  HARNESS_ID,
  INSTALL_HARNESSES,
  SETTINGS_FILE,
  compareVersions,
  harnessEntry,
  type InstallHarness
} from './harness-install'
export { watchHarness } from './harness-watch'
export { MAX_HOOK_INPUT_BYTES, readHookInput } from './hook-input'
export {
  HOOK_JOBS_DIR,
  claimJobs,
  jobsWaiting,
  palaceEnvOf,
  prepareJob,
  releaseJobs,
  takeJob,
  type HookJob,
  type PendingJob
} from './hook-jobs'
export type { HarnessCall } from './harnesses'
export { installHooks, installedCommand, shellQuote, uninstallHooks } from './hook-install'
export { startDetached } from './session-spawn'
export { appendSessionState, type SessionRecord } from './session-append'
export { readSessionHook, SESSION_HOOK_EVENTS, sessionBody, type SessionHarness } from './session-lifecycle'
export { installOpencodePlugin, opencodePluginSource, uninstallOpencodePlugin } from './opencode-plugin'
