/**
 * What every harness adapter provides: it recognises its own hook payload (looking at the payload
 * as a whole), turns it into one tool call for the operator, and prints the answer in the
 * harness's own format. The wait for the operator is not the adapter's: every harness goes
 * through the one core path in `approve-hook.ts`. No zod: this runs in the hook process.
 */
import type { CallProvenance } from '../../../shared/approvals/provenance'
import type { ToolInput } from '../../../shared/approvals/tool-call'
import type { GateFault } from '../../../shared/approvals/gate-faults'
import type { HarnessId, ReceiptOutcome } from '../../../shared/contract/hub-vocabulary'
import type { SessionStateName } from '../../../shared/contract/session-state'
import type { UsageReader } from './usage-reading'

/** One tool call a harness asks about, in Muster's terms. */
export interface HarnessCall {
  harness: HarnessId
  /** The harness's own hook event name, as received (or as installed, when the payload has none). */
  event: string
  tool_name: string
  tool_input: ToolInput
  session_id: string | null
  cwd: string | null
  tool_use_id: string | null
  transcript_path: string | null
  /** The harness's own "always allow" updates it offered (Claude Code `permission_suggestions`): kept for the record, never sent back. */
  suggestions: unknown[] | null
  /** What the harness itself would remember on an "always" reply (OpenCode's `always` patterns). */
  harness_always?: string[]
  /** Where the call comes from (MCP server, subagent, permission mode, skill), as the harness said. */
  provenance?: CallProvenance
  /** The payload's fields the adapter does not know, verbatim and bounded (`extraFields`). */
  extra?: Record<string, unknown>
}

/** The hook's verdict: `ask` leaves the decision to the harness's own prompt. */
export type HookVerdict = 'allow' | 'deny' | 'ask'

/** What the hook prints and how it exits. */
export interface HookReply {
  stdout: string
  exitCode: number
  /** A line for stderr (exit 2 reasons are read from there by most harnesses). */
  stderr?: string
}

/** An answer's extras. */
export interface AnswerExtras {
  /** The operator approved and asked to always allow: add the narrowest lasting grant the harness keeps (`native-grant.ts`), if any. */
  always?: boolean
}

/** Where a harness keeps the settings Muster edits, relative to the user's home or the current folder. */
export interface SettingsLocation {
  under: 'home' | 'cwd'
  path: readonly string[]
}

/** What one hook entry needs (approvals gate or lifecycle hook). */
export interface EntryOptions {
  event: string
  /** The command line (for a harness whose payload names no event, the event is already appended). */
  command: string
  /** The harness's own timeout, in seconds. */
  timeoutSec: number
  /** Tool-name regex where the harness takes one; undefined = every tool. */
  matcher?: string
  /** Write the harness's own "a failed hook blocks" switch, where it has one and this version honours it. */
  failClosed?: boolean
}

/** One entry to install: the harness's hook event and the array item to put under `hooks.<event>`. */
export interface HookEntrySpec {
  event: string
  /** The array item, in the harness's own shape (a matcher group, or a flat command entry). */
  entry: Record<string, unknown>
}

/** How a harness's approvals gate is installed. */
export interface GateSpec {
  /** The hook events the gate can answer, and the ones installed by default. */
  events: readonly string[]
  defaultEvents: readonly string[]
  /** Named sets of events (`--mode`), where the harness has sessions that ask and sessions that never do (Codex). */
  modes?: Readonly<Record<string, readonly string[]>>
  /** What reaches the operator through each event, as install reports it. */
  what: Readonly<Record<string, string>>
  /** The tool-name matcher installed by default for an event (undefined: every tool). */
  matcher?(event: string): string | undefined
  /** One hook entry in the harness's own shape; absent for a harness gated by a plugin (OpenCode). */
  entry?(o: EntryOptions): HookEntrySpec
  /** A plugin file Muster owns whole instead of hook entries: its first line, and its source for one command line. */
  plugin?: { mark: string; source(command: string, timeoutSec: number): string }
  /** A hooks file Muster creates starts as this object (e.g. `{"version": 1}`). */
  fileBase?: Readonly<Record<string, unknown>>
  /** The payload names no event: the installed command carries `--event`. */
  eventInCommand?: boolean
  /**
   * The harness runs the command through a shell and blocks only on exit 2 (a hook that cannot
   * start is "failed" and the call runs): the gate's command ends with `|| exit 2`, so even a
   * launcher that cannot start at all (deleted, its node gone) blocks, the shell's line as reason.
   */
  exitTwoOnFailure?: boolean
  /** Lines install prints about this harness (trust, versions), given what it found. */
  notes?(o: { version: string | null; events?: readonly string[]; changedEvents: readonly string[]; action: string }): string[]
}

/** The session lifecycle hooks a harness offers. */
export interface LifecycleSpec {
  /** Each lifecycle event and the session state it means. */
  events: Readonly<Record<string, SessionStateName>>
  /** True when a lifecycle payload without `--harness` is this harness's. */
  recognizes(o: Record<string, unknown>): boolean
  /** The operator-facing line of a state change, if the payload has one. */
  message(event: string, o: Record<string, unknown>): string | null
  /** A line install prints (e.g. Codex's trust review). */
  note?: string
  /** The receipt hooks, installed with `session-hook install --receipts`, where the harness has them. */
  receipts?: ReceiptSpec
}

/**
 * The harness's own events after a call Muster answered, and the ones that end a session's waits:
 * what the receipt of each says (`approval.receipt`, `core/approvals/approval-receipts.ts`).
 */
export interface ReceiptSpec {
  /** Per-call events (their payload names the call): the outcome each records. */
  calls: Readonly<Record<string, (o: Record<string, unknown>) => ReceiptOutcome>>
  /** Events that end the session's waits, besides the lifecycle's `done`, and the session state each means. */
  ends: Readonly<Record<string, SessionStateName>>
  /** What an end says of a delivered allow that has not run: `denied` (the user refused it), else `withdrawn`. */
  endOutcome?(event: string, o: Record<string, unknown>): 'denied' | 'withdrawn'
  /** The first release that sends every one of these events, for install's note. */
  since?: string
}

export { GATE_FAULTS, type GateFault } from '../../../shared/approvals/gate-faults'

/** What happens to the agent's call on one fault: blocked, blocked only in some modes, or let through (the harness offers no way). */
export interface FaultHandling {
  outcome: 'blocked' | 'partly' | 'runs' | 'n/a'
  /** In the operator's words: what the harness does and why. */
  how: string
}

/** Whether the harness runs an installed hook, as its own trust records say. */
export type TrustState = 'trusted' | 'untrusted' | 'modified' | 'disabled'

/** One installed hook entry, as a trust check reads it. */
export interface InstalledEntry {
  /** The settings file (absolute), the event, the entry's index in `hooks.<event>` and the hook's in the entry. */
  file: string
  event: string
  group: number
  handler: number
  /** The array item as written (`{matcher?, hooks: [...]}` or a flat entry). */
  entry: Record<string, unknown>
}

/** How the harness decides whether to run a hook it finds in its settings. */
export interface TrustSpec {
  /** `none`: every hook in the settings runs; `review`: the harness runs a new or changed hook only once the user trusted it. */
  kind: 'none' | 'review'
  how: string
  /** Where the harness keeps its trust records (a TOML or JSON file), and the variable that moves its folder. */
  store?: { under: 'home'; path: readonly string[]; envDir?: string }
  /** The hook's trust state from the parsed trust records (`sha256` hashes text, hex). */
  check?(hook: InstalledEntry, records: Record<string, unknown>, sha256: (text: string) => string): TrustState
}

/** The harness's own version: how to ask for it and what each release can do. */
export interface VersionSpec {
  /** The harness's command and the argument that prints its version. */
  bin: string
  args: readonly string[]
  /** The release the adapter was checked against (real CLI in e2e). */
  tested: string
  /** The first release whose gate fails closed on a crashed or missing hook, where that depends on the version. */
  failClosedSince?: string
}

/** One harness: everything Muster knows about it, in one file. */
export interface HarnessAdapter {
  id: HarnessId
  /** The name `--harness` takes for install (`claude`, `codex`, ...); `aliases` are accepted too. */
  name: string
  aliases?: readonly string[]
  /** As the operator reads it. */
  label: string
  /** True when the payload is this harness's (`event` is the one installed, for payloads without one). */
  recognizes(o: Record<string, unknown>, event?: string): boolean
  /** The call, or a HookInputError for a payload of this harness that cannot be used. */
  parse(o: Record<string, unknown>, event?: string): HarnessCall
  /** The answer in the harness's own format. */
  answer(call: HarnessCall, verdict: HookVerdict, reason: string, extras?: AnswerExtras): HookReply
  /** How this harness is told "no" when its payload cannot be used: its own deny, or exit 2 with the reason. */
  refuse(reason: string, event?: string): HookReply
  /**
   * What the gate answers when no hub can be reached: `ask` where the harness then asks a person
   * itself (its own prompt), `deny` where nobody could answer that (a deny-only gate, a run with no
   * prompt). Default `ask`.
   */
  noHub?(event: string): 'ask' | 'deny'
  /**
   * Where the harness can answer a call itself while the hook waits (OpenCode: `opencode run`, or a
   * person at its own prompt), what happened, in the operator's words: the request is recorded as
   * not delivered (abandoned), never as the operator's decision.
   */
  answeredItself?(answer: 'allow' | 'reject'): string
  /** The settings file the gate and lifecycle hooks go into by default. */
  settings: SettingsLocation
  gate: GateSpec
  lifecycle?: LifecycleSpec
  /** What happens to a call on each fault, with Muster's gate installed as `install` writes it. */
  faults: Readonly<Record<GateFault, FaultHandling>>
  trust: TrustSpec
  versions: VersionSpec
  /** How Muster reads the harness's token usage from its own records (`usage-reading.ts`). */
  usage?: UsageReader
  /** Why there is no usage reader (what the harness records instead): shown instead of 0. */
  noUsage?: string
}

/** A malformed hook input. */
export class HookInputError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'HookInputError'
  }
}

/** Exit 2 with the reason on stderr: every harness here treats it as "block this call". */
export function exitTwo(reason: string): HookReply {
  return { stdout: '', exitCode: 2, stderr: reason }
}

/** A string field or null; anything else is a HookInputError. */
export function optText(o: Record<string, unknown>, key: string): string | null {
  const v = o[key]
  if (v === undefined || v === null) return null
  if (typeof v !== 'string') throw new HookInputError(`hook input field ${key} must be a string`)
  return v
}

/** A required, non-empty string field. */
export function needText(o: Record<string, unknown>, key: string): string {
  const v = o[key]
  if (typeof v !== 'string' || v.trim() === '') throw new HookInputError(`hook input has no ${key}`)
  return v
}

/**
 * A tool input: an object, or (where `text` is allowed: Cursor and Copilot send text) a JSON text
 * holding one. Input that is not there, or not JSON, is a HookInputError: the operator would
 * approve arguments nobody could read, so the call is blocked instead.
 */
export function toolInputOf(v: unknown, key: string, text = false): ToolInput {
  if (v === undefined || v === null) throw new HookInputError(`hook input has no ${key} (the arguments the operator must see)`)
  if (typeof v === 'string' && text) {
    if (v.trim() === '') return {}
    try {
      v = JSON.parse(v)
    } catch {
      throw new HookInputError(`hook input ${key} is text that is not JSON (the arguments cannot be read)`)
    }
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new HookInputError(`hook input ${key} must be a JSON object`)
  return v as ToolInput
}

/** One JSON line. */
export const line = (v: unknown): string => JSON.stringify(v) + '\n'

/** Compares dotted versions: negative, zero or positive. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number)
  const pb = b.split('.').map(Number)
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0)
    if (d) return d
  }
  return 0
}

/** A non-empty string, or null. */
export const textOf = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null)
