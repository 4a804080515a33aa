/**
 * The fault matrix the real harness CLIs are run through in `e2e/gate-faults.spec.ts`: for each
 * harness and fault, what reached the model with Muster's gate broken that way. README's fault
 * table is generated from this and each harness's own `faults` (`test/readme-harness-faults.test.ts`
 * checks it), so the README says "real CLI" only where a real CLI was seen doing it.
 */
import type { GateFault } from '../../src/shared/approvals/gate-faults'
import type { HarnessId } from '../../src/shared/contract/hub-vocabulary'

/** One (harness, fault) pair run against the real CLI. */
export interface FaultCase {
  harness: HarnessId
  /** The mode the harness runs in. */
  mode: string
  fault: GateFault
  /** More `approve-hook install` flags the case needs (a short `--timeout-ms` for a timeout). */
  install?: readonly string[]
  /** What the model is told instead of the command's output (the command never runs). */
  model: RegExp
  /**
   * What the harness logged of Muster's hook (Claude Code's debug file), where the model's text is
   * the harness's own: it shows the hook ran and answered as the README says.
   */
  hook?: RegExp
}

// Muster answers nothing, so Claude Code would show its dialog; with nobody to answer it (`-p`) it denies in its own words
const CLAUDE_NOBODY = /' needs approval\. The path is inside the working directories for this session/
const HUB_GONE = /Muster could not reach the hub .* so nobody could approve this call: it is denied\. Fix: `muster gates`/
const BUILD_GONE = /Muster's build at .* is gone \(moved or uninstalled\); run `muster gates`/
const BUILD_CRASHES = /Muster's build at .* cannot start \(this build is broken\); run `muster gates`/
/** The hook's own wait, short: nobody answers, so the hook denies as a timeout before the harness's timeout. */
const SHORT_WAIT = ['--timeout-ms', '4000'] as const
const TIMED_OUT = /Muster approvals: no decision within 4 s \(timed out\)/

/** Every pair `e2e/gate-faults.spec.ts` runs. */
export const FAULT_CASES: readonly FaultCase[] = [
  {
    harness: 'claude-code',
    mode: 'claude -p',
    fault: 'hub-unreachable',
    model: CLAUDE_NOBODY,
    hook: /Hook PermissionRequest:Bash \(PermissionRequest\) success:.*muster approve-hook: cannot ask the operator \(no hub at .*\); the harness asks instead/s
  },
  { harness: 'claude-code', mode: 'claude -p', fault: 'build-missing', model: BUILD_GONE },
  { harness: 'claude-code', mode: 'claude -p', fault: 'hook-crash', model: BUILD_CRASHES },
  { harness: 'claude-code', mode: 'claude -p', fault: 'hook-timeout', install: SHORT_WAIT, model: TIMED_OUT },
  { harness: 'codex', mode: 'codex exec', fault: 'hub-unreachable', model: HUB_GONE },
  { harness: 'codex', mode: 'codex exec', fault: 'build-missing', model: BUILD_GONE },
  { harness: 'codex', mode: 'codex exec', fault: 'hook-crash', model: BUILD_CRASHES },
  { harness: 'codex', mode: 'codex exec', fault: 'hook-timeout', install: SHORT_WAIT, model: TIMED_OUT },
  { harness: 'gemini', mode: 'gemini -p', fault: 'hub-unreachable', model: HUB_GONE },
  { harness: 'gemini', mode: 'gemini -p', fault: 'build-missing', model: BUILD_GONE },
  { harness: 'gemini', mode: 'gemini -p', fault: 'hook-crash', model: BUILD_CRASHES },
  // Muster answers nothing, so Copilot asks; with nobody to ask (`-p`) it denies in its own words
  {
    harness: 'copilot',
    mode: 'copilot -p',
    fault: 'hub-unreachable',
    model: /Permission denied because no interactive user response was available/
  },
  { harness: 'copilot', mode: 'copilot -p', fault: 'build-missing', model: BUILD_GONE },
  { harness: 'copilot', mode: 'copilot -p', fault: 'hook-crash', model: BUILD_CRASHES }
]

/** Faults other real-CLI specs run (spec file per harness and fault). */
export const OTHER_FAULT_SPECS: readonly { harness: HarnessId; fault: GateFault; spec: string }[] = [
  // a hook command that exits 1 outright (no launcher to answer): Claude Code's onFailure "block"
  { harness: 'claude-code', fault: 'hook-crash', spec: 'e2e/claude-code.spec.ts' },
  // `opencode serve`: the hub gone, the call waits at OpenCode's own prompt; the build gone or crashing, it is rejected with the reason
  { harness: 'opencode', fault: 'hub-unreachable', spec: 'e2e/opencode.spec.ts' },
  { harness: 'opencode', fault: 'build-missing', spec: 'e2e/opencode.spec.ts' },
  { harness: 'opencode', fault: 'hook-crash', spec: 'e2e/opencode.spec.ts' }
]
