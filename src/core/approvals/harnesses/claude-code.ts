/**
 * Claude Code (`~/.claude/settings.json`, hooks `PreToolUse` and `PermissionRequest`; lifecycle
 * SessionStart, UserPromptSubmit, Notification, Stop, SessionEnd).
 * - PreToolUse: `hookSpecificOutput.permissionDecision` allow / deny / ask with a reason.
 * - PermissionRequest (fires only where Claude Code would show its own dialog):
 *   `hookSpecificOutput.decision.behavior` allow / deny (`message` on deny); "always allow" adds
 *   one `addRules` update Muster builds from the call (`shared/approvals/native-grant.ts`: this
 *   exact command, file or host, for the session only), never Claude Code's own
 *   `permission_suggestions` (they can set the mode to acceptEdits or add a folder). It has no
 *   "ask": printing nothing lets Claude Code show its dialog.
 * Exit 2 blocks the call (and denies a permission request), with stderr as the reason. From
 * 2.1.295 a command hook may carry `onFailure: "block"`: a hook that crashes or times out blocks.
 * Install: `PermissionRequest` by default (it fires only where Claude Code would show its own
 * dialog, whatever the permission mode or allow rules); `PreToolUse` (every matching call) only
 * when asked, with a matcher of the tools that change things or reach out.
 */
import { claudeAlwaysUpdates } from '../../../shared/approvals/native-grant'
import { extraFields, provenanceOfPayload } from '../../../shared/approvals/provenance'
import { Harness } from '../../../shared/contract/hub-vocabulary'
import { tokenCount } from '../../../shared/contract/tokens'
import { grownBy, obj, rootFrom, SESSION_ID, str, type RecordUsage, type SeenMessages, type UsageReader } from './usage-reading'
import {
  compareVersions,
  exitTwo,
  HookInputError,
  line,
  needText,
  optText,
  textOf,
  toolInputOf,
  type EntryOptions,
  type HarnessAdapter,
  type HarnessCall,
  type HookEntrySpec,
  type HookReply,
  type HookVerdict
} from './types'

/** The hook events of Claude Code (and Codex, which copied them) that ask about one tool call. */
export const TOOL_EVENTS = ['PreToolUse', 'PermissionRequest'] as const
/**
 * Claude Code's hook for the shell lines of skills and slash commands (2.1.332+): PreToolUse-shaped
 * answer, but `allow` adds nothing and `ask` (like deny and defer) keeps the line from running, so
 * Muster never answers it `ask`. Installed only when chosen (`--event PreSkillShellCommand`).
 */
export const SKILL_SHELL_EVENT = 'PreSkillShellCommand'
/** The first Claude Code that sends it. */
export const SKILL_SHELL_SINCE = '2.1.332'
/** The first Claude Code that sends `Interrupt` (the user stopped the turn: its waits are withdrawn). */
export const CLAUDE_INTERRUPT_SINCE = '2.1.335'
/** Every event Claude Code's gate can answer. */
const CLAUDE_GATE_EVENTS = [...TOOL_EVENTS, SKILL_SHELL_EVENT] as const

/** The payload fields Claude Code and Codex send that Muster reads or knowingly ignores; any other is kept as an extra. */
const KNOWN_FIELDS: ReadonlySet<string> = new Set([
  'hook_event_name',
  'session_id',
  'transcript_path',
  'cwd',
  'prompt_id',
  'permission_mode',
  'agent_id',
  'agent_type',
  'effort',
  'tool_name',
  'tool_input',
  'tool_use_id',
  'permission_suggestions',
  'mcp_server',
  'command_name',
  'command_source',
  'invoked_by',
  // Codex's own
  'turn_id',
  'model'
])

/** Parses a Claude-Code-shaped tool event (Codex sends the same shape); `events` are the ones this harness answers. */
export function parseToolEvent(
  o: Record<string, unknown>,
  harness: HarnessCall['harness'],
  events: readonly string[] = TOOL_EVENTS
): HarnessCall {
  const event = needText(o, 'hook_event_name')
  if (!events.includes(event))
    throw new HookInputError(`unsupported hook_event_name '${event}' (approve-hook answers ${events.join(', ')})`)
  const suggestions = Array.isArray(o.permission_suggestions) ? (o.permission_suggestions as unknown[]) : null
  const provenance = provenanceOfPayload(o)
  const extra = extraFields(o, KNOWN_FIELDS)
  return {
    harness,
    event,
    tool_name: needText(o, 'tool_name'),
    tool_input: toolInputOf(o.tool_input ?? null, 'tool_input'),
    session_id: optText(o, 'session_id'),
    cwd: optText(o, 'cwd'),
    tool_use_id: optText(o, 'tool_use_id'),
    transcript_path: optText(o, 'transcript_path'),
    suggestions,
    ...(provenance ? { provenance } : {}),
    ...(extra ? { extra } : {})
  }
}

/** `PreToolUse`'s answer (and `PreSkillShellCommand`'s: `event`): the decision with its reason. */
export function preToolUseAnswer(verdict: HookVerdict, reason: string, event = 'PreToolUse'): HookReply {
  return {
    stdout: line({ hookSpecificOutput: { hookEventName: event, permissionDecision: verdict, permissionDecisionReason: reason } }),
    exitCode: 0
  }
}

/** `PreSkillShellCommand`'s answer: `ask` would keep the line from running with no one asked, so it is a deny saying why. */
function skillShellAnswer(verdict: HookVerdict, reason: string): HookReply {
  return verdict === 'ask'
    ? preToolUseAnswer('deny', `${reason} (a skill's shell line cannot wait for Claude Code's own prompt)`, SKILL_SHELL_EVENT)
    : preToolUseAnswer(verdict, reason, SKILL_SHELL_EVENT)
}

/** `PermissionRequest`'s answer; `updatedPermissions` only where given. */
export function permissionRequestAnswer(verdict: HookVerdict, reason: string, updatedPermissions?: unknown[] | null): HookReply {
  if (verdict === 'ask') return { stdout: '', exitCode: 0 }
  const decision =
    verdict === 'allow'
      ? { behavior: 'allow', ...(updatedPermissions?.length ? { updatedPermissions } : {}) }
      : { behavior: 'deny', message: reason }
  return { stdout: line({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } }), exitCode: 0 }
}

/** True for a Codex payload: its `turn_id` and `model`, or a transcript under `.codex`. */
export function looksLikeCodex(o: Record<string, unknown>): boolean {
  const t = typeof o.transcript_path === 'string' ? o.transcript_path : ''
  return ('turn_id' in o && 'model' in o) || /[\\/]\.codex[\\/]/.test(t)
}

/** Claude Code's PreToolUse, when chosen: only the tools that change things or reach out (never Read, Glob, Grep...). */
export const DEFAULT_PRE_TOOL_MATCHER = 'Bash|Edit|MultiEdit|Write|NotebookEdit|WebFetch|mcp__.*'
/** The first Claude Code that honours `onFailure` on command hooks. */
export const CLAUDE_ON_FAILURE_SINCE = '2.1.295'

/** A `{matcher?, hooks: [hook]}` group, the entry shape of Claude Code, Codex and Gemini CLI. */
export function matcherGroup(event: string, matcher: string | undefined, hook: Record<string, unknown>): HookEntrySpec {
  return { event, entry: { ...(matcher ? { matcher } : {}), hooks: [hook] } }
}

/** The Stop / SessionEnd / Notification line of a Claude-Code-shaped lifecycle payload. */
export function lifecycleMessage(event: string, o: Record<string, unknown>): string | null {
  if (event === 'Notification') return textOf(o.message)
  if (event === 'Interrupt') return [textOf(o.reason), textOf(o.via) && `via ${textOf(o.via)}`].filter(Boolean).join(', ') || null
  if (event === 'SessionEnd') return textOf(o.reason)
  if (event === 'Stop' || event === 'AfterAgent') return textOf(o.last_assistant_message) ?? textOf(o.prompt_response)
  return null
}

/**
 * Claude Code's usage: its transcripts (`<config>/projects/<folder>/<session>.jsonl`, subagents
 * in `<session>/subagents/*.jsonl`), one JSON record per line. An `assistant` record carries the
 * API message with its `usage` (input, output, cache creation and cache read tokens) and `model`;
 * a message of several content blocks is written as several records with the same `message.id`,
 * so each message counts once (the largest counts seen for it). `<synthetic>` messages (Claude
 * Code's own error notes) used no model. Every record names the `sessionId` and the `cwd`.
 */
/** What Claude Code's reader carries between records. */
interface ClaudeUsageState {
  seen: SeenMessages
}

/** The model Claude Code names on messages it made itself. */
const SYNTHETIC = '<synthetic>'

/** `<folder>/<session>.jsonl`, or a subagent's `<folder>/<session>/subagents/<agent>.jsonl` (the session's). */
const FILE_RE = new RegExp(`^[^/]+/(${SESSION_ID})(?:\\.jsonl|/subagents/[^/]+\\.jsonl)$`)

/** Claude Code transcripts. */
export const claudeCodeUsage: UsageReader<ClaudeUsageState> = {
  harness: Harness.claudeCode,
  roots: (env) => rootFrom(env, 'CLAUDE_CONFIG_DIR', '.claude', 'projects'),
  recordFile: (rel) => {
    const m = FILE_RE.exec(rel)
    return m ? { session_id: m[1]! } : null
  },
  // <folder>/<session>/subagents only
  prune: (dir) => {
    const parts = dir.split('/')
    return parts.length > 3 || (parts.length === 3 && parts[2] !== 'subagents')
  },
  wanted: (line) => line.includes('"usage"') || line.includes('"sessionId"'),
  start: () => ({ seen: [] }),
  read(r, state): RecordUsage {
    const facts = { session_id: str(r.sessionId), cwd: str(r.cwd) }
    const message = obj(r.message)
    const usage = obj(message?.usage)
    if (r.type !== 'assistant' || !message || !usage) return { usage: [], facts }
    const model = str(message.model) ?? 'unknown'
    if (model === SYNTHETIC) return { usage: [], facts }
    const counts = {
      input: tokenCount(usage.input_tokens),
      output: tokenCount(usage.output_tokens),
      cache_write: tokenCount(usage.cache_creation_input_tokens),
      cache_read: tokenCount(usage.cache_read_input_tokens)
    }
    const id = str(message.id) ?? str(r.requestId) ?? str(r.uuid)
    const tokens = id ? grownBy(state.seen, id, counts) : counts
    return { usage: [{ at: str(r.timestamp) ?? null, model, tokens }], facts }
  }
}

/** Claude Code. */
export const claudeCode: HarnessAdapter = {
  id: Harness.claudeCode,
  name: 'claude',
  aliases: ['claude-code'],
  label: 'Claude Code',
  recognizes: (o) =>
    typeof o.hook_event_name === 'string' && (CLAUDE_GATE_EVENTS as readonly string[]).includes(o.hook_event_name) && !looksLikeCodex(o),
  parse: (o) => parseToolEvent(o, Harness.claudeCode, CLAUDE_GATE_EVENTS),
  answer: (call, verdict, reason, extras) =>
    call.event === 'PermissionRequest'
      ? permissionRequestAnswer(verdict, reason, extras?.always ? claudeAlwaysUpdates(call) : null)
      : call.event === SKILL_SHELL_EVENT
        ? skillShellAnswer(verdict, reason)
        : preToolUseAnswer(verdict, reason),
  // a permission request told no in its own shape, so the reason reaches the model (exit 2 only shows the dialog)
  refuse: (reason, event) => (event === 'PermissionRequest' ? permissionRequestAnswer('deny', reason) : exitTwo(reason)),
  settings: { under: 'home', path: ['.claude', 'settings.json'] },
  gate: {
    events: CLAUDE_GATE_EVENTS,
    defaultEvents: ['PermissionRequest'],
    what: {
      PermissionRequest: 'only the calls Claude Code would ask you about (its mode and allow rules decide first)',
      PreToolUse: 'every matching call, whatever Claude Code’s mode or allow rules (explicit choice)',
      PreSkillShellCommand: 'every shell line of a skill or slash command (2.1.332+), with the skill and who invoked it'
    },
    matcher: (event) => (event === 'PreToolUse' ? DEFAULT_PRE_TOOL_MATCHER : undefined),
    exitTwoOnFailure: true,
    entry: (o: EntryOptions) =>
      matcherGroup(o.event, o.matcher, {
        type: 'command',
        command: o.command,
        timeout: o.timeoutSec,
        ...(o.failClosed ? { onFailure: 'block' } : {})
      }),
    notes: ({ version, events }) => [
      version && compareVersions(version, CLAUDE_ON_FAILURE_SINCE) >= 0
        ? `Claude Code ${version}: onFailure "block" written, so a hook that crashes blocks the call`
        : version
          ? `Claude Code ${version} predates onFailure (${CLAUDE_ON_FAILURE_SINCE}): a hook that crashes lets the call through there; update Claude Code and install again`
          : 'Claude Code was not found (claude --version): onFailure not written; install again where it runs',
      ...(events?.includes(SKILL_SHELL_EVENT) && version && compareVersions(version, SKILL_SHELL_SINCE) < 0
        ? [
            `Claude Code ${version} predates ${SKILL_SHELL_EVENT} (${SKILL_SHELL_SINCE}): skills' shell lines are not gated there until you update`
          ]
        : [])
    ]
  },
  lifecycle: {
    events: { SessionStart: 'waiting', UserPromptSubmit: 'working', Notification: 'waiting', Stop: 'waiting', SessionEnd: 'done' },
    recognizes: (o) => typeof o.hook_event_name === 'string',
    message: lifecycleMessage,
    receipts: {
      calls: {
        PostToolUse: () => 'ran',
        // a call the user stopped while it ran (Esc) is interrupted, not failed
        PostToolUseFailure: (o) => (o.is_interrupt === true ? 'interrupted' : 'failed'),
        PermissionDenied: () => 'denied'
      },
      ends: { Interrupt: 'interrupted' },
      endOutcome: (event, o) => (event === 'Interrupt' && o.reason === 'permission_denied' ? 'denied' : 'withdrawn'),
      since: CLAUDE_INTERRUPT_SINCE
    }
  },
  faults: {
    'hub-unreachable': {
      outcome: 'blocked',
      how: 'Muster answers nothing and Claude Code shows its own dialog (`claude -p` has nobody to answer it: denied)'
    },
    'build-missing': {
      outcome: 'blocked',
      how: 'the gate launcher denies with the reason; a launcher that cannot start: onFailure "block" (2.1.295+)'
    },
    'hook-crash': {
      outcome: 'blocked',
      how: 'the gate launcher denies with the reason; a hook killed outright: onFailure "block" (2.1.295+)'
    },
    'hook-timeout': { outcome: 'blocked', how: 'Muster denies as a timeout before Claude Code’s own hook timeout' },
    untrusted: { outcome: 'n/a', how: 'Claude Code runs every hook in its settings (no trust step)' },
    'bad-input': { outcome: 'blocked', how: 'exit 2 with the reason; nothing recorded' }
  },

  trust: { kind: 'none', how: 'every hook in the settings files runs' },
  versions: { bin: 'claude', args: ['--version'], tested: '2.1.332', failClosedSince: CLAUDE_ON_FAILURE_SINCE },
  usage: claudeCodeUsage
}
