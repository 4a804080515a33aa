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
export { decisionAppend, projectStream, requestAppend } from './approval-events'
export { readReceipt, receiptAppend, recordReceipt, requestRef, type ReceiptWrite } from './approval-receipts'
export {
  RECEIPTS_DIR,
  STALE_CLAIM_MS,
  claimed,
  disableReceipts,
  enableReceipts,
  leaveMarker,
  receiptsEnabled,
  sessionHasMarkers,
  takeMarker,
  takeSessionMarkers,
  type ReceiptMarker,
  type RequestRef,
  type TakenMarker
} from './receipt-markers'
export { DecisionTrust, KEY_ID_RE, readSignature, rulePayload, type DecisionSigner, type SignatureRef } from './decision-trust'
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
export {
  LIFECYCLE_CHOICES,
  SESSION_HOOK_TIMEOUT_SEC,
  gateEvents,
  harnessNamed,
  installGate,
  installLifecycle,
  settingsFile,
  uninstallGate,
  uninstallLifecycle,
  type GateInstallResult,
  type HookProgram,
  type HookTarget,
  type InstallPlace
} from './gate-install'
export { harnessVersion } from './harness-version'
export {
  TEST_COMMAND,
  connectHarness,
  connectHub,
  defaultAgent,
  disconnectHarness,
  harnessConnection,
  harnessConnections,
  launcherProgram,
  musterBuildEntry,
  onPath,
  sendTestRequest,
  testAsk,
  type ConnectOptions,
  type ConnectPlace
} from './connect'
export { checkGates, foundGates, type GateHealthOptions } from './gate-health'
export {
  GATES_HEALTH_FILE,
  GateMonitor,
  readGatesReport,
  writeGatesReport,
  type GateWorkerInput,
  type GateWorkerOutput
} from './gate-monitor'
export { forgetGate, readGateRecords, recordGate, type GateRecord } from './gate-records'
export { LAUNCHER_MARK, launcherPath, launcherSource, readLauncher, writeLauncher, type LauncherTarget } from './gate-launcher'
export { HARNESS_LIST, adapterFor, compareVersions, type HarnessAdapter } from './harnesses'
export { watchHarness } from './harness-watch'
export { GATE_PROBE, GATE_PROBE_ANSWER, MAX_HOOK_INPUT_BYTES, isGateProbe, readHookInput } from './hook-input'
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
export type { FolderEnv, HarnessCall, RecordUsage, SessionFacts, UsageDelta, UsageReader } from './harnesses'
export { installHooks, installedCommand, shellQuote, uninstallHooks } from './hook-install'
export { startDetached } from './session-spawn'
export { appendSessionState, type SessionRecord } from './session-append'
export { readSessionHook, SESSION_HOOK_EVENTS, sessionBody, type SessionEnd } from './session-lifecycle'
export { recordTaken, settleSessionEnd, type ReceiptHubs } from './session-receipts'
