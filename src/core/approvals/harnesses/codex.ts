/**
 * Codex (`~/.codex/hooks.json`): the Claude Code shape, on Codex's terms.
 * - `PermissionRequest` (interactive sessions, where Codex would ask): behavior allow / deny;
 *   printing nothing lets Codex ask. Codex refuses `updatedPermissions` (it fails the hook
 *   closed), so "always allow" is Muster's allowlist rule only.
 * - `PreToolUse` is a deny-only gate (for `codex exec`, which never asks): Codex accepts only
 *   `permissionDecision: "deny"` with a non-empty reason; an allow is "Hook failed". So an allow
 *   (or no decision) prints nothing and Codex goes on; a deny stops the call.
 * Exit 2 with a reason on stderr blocks in both.
 * Install: `--mode interactive` (PermissionRequest, the default), `exec` (PreToolUse) or `both`.
 * Codex runs a hook only once the user trusted it (`/hooks` in the TUI); the trust is keyed to the
 * hook's command line, so a reinstall keeps a command line it finds when only the program differs.
 * Lifecycle: SessionStart, UserPromptSubmit, Stop (no SessionEnd).
 */
import { Harness } from '../../../shared/contract/hub-vocabulary'
import {
  lifecycleMessage,
  looksLikeCodex,
  matcherGroup,
  parseToolEvent,
  permissionRequestAnswer,
  preToolUseAnswer,
  TOOL_EVENTS
} from './claude-code'
import { exitTwo, type HarnessAdapter } from './types'

/** Codex. */
export const codex: HarnessAdapter = {
  id: Harness.codex,
  name: 'codex',
  label: 'Codex',
  recognizes: (o) =>
    typeof o.hook_event_name === 'string' && (TOOL_EVENTS as readonly string[]).includes(o.hook_event_name) && looksLikeCodex(o),
  parse: (o) => parseToolEvent(o, Harness.codex),
  answer: (call, verdict, reason) => {
    if (call.event === 'PermissionRequest') return permissionRequestAnswer(verdict, reason)
    return verdict === 'deny' ? preToolUseAnswer('deny', reason.trim() || 'denied in Muster') : { stdout: '', exitCode: 0 }
  },
  refuse: (reason) => exitTwo(reason),
  settings: { under: 'home', path: ['.codex', 'hooks.json'] },
  gate: {
    events: TOOL_EVENTS,
    defaultEvents: ['PermissionRequest'],
    modes: { interactive: ['PermissionRequest'], exec: ['PreToolUse'], both: ['PermissionRequest', 'PreToolUse'] },
    what: {
      PermissionRequest: 'interactive sessions: the calls Codex would ask you about; allow or deny',
      PreToolUse: '`codex exec`: every call waits for you; deny stops it, allow (or no answer) lets Codex go on (a deny-only gate)'
    },
    entry: (o) => matcherGroup(o.event, o.matcher, { type: 'command', command: o.command, timeout: o.timeoutSec }),
    notes: ({ changedEvents, action }) => [
      action === 'unchanged'
        ? 'unchanged: Codex keeps trusting it'
        : changedEvents.length
          ? `Codex asks you to trust the ${changedEvents.join(' and ')} hook (its command is new or changed): review it once with /hooks in Codex; \`codex exec\` runs only trusted hooks`
          : 'the command line is unchanged; Codex asks again only if the entry changed otherwise (timeout, matcher)'
    ]
  },
  lifecycle: {
    events: { SessionStart: 'waiting', UserPromptSubmit: 'working', Stop: 'waiting' },
    recognizes: (o) => typeof o.hook_event_name === 'string' && ('turn_id' in o || looksLikeCodex(o)),
    message: lifecycleMessage,
    note: 'Codex asks you to trust new or changed hooks once (/hooks)'
  },
  faults: {
    'hub-unreachable': {
      outcome: 'partly',
      how: 'interactive: Muster answers nothing and Codex asks you; `codex exec`: the deny-only gate prints nothing and the call runs'
    },
    'build-missing': { outcome: 'runs', how: 'Codex reports "hook: PreToolUse Failed" and runs the call' },
    'hook-crash': { outcome: 'runs', how: 'Codex reports "hook: PreToolUse Failed" and runs the call' },
    'hook-timeout': { outcome: 'blocked', how: 'Muster denies as a timeout before Codex’s own hook timeout' },
    untrusted: { outcome: 'runs', how: '`codex exec` skips a hook nobody trusted, silently; only the TUI shows "Hooks need review"' },
    'bad-input': { outcome: 'blocked', how: 'exit 2 with the reason; nothing recorded' }
  },
  trust: { kind: 'review', how: 'a new or changed hook runs only once trusted with /hooks in the Codex TUI' },
  versions: { bin: 'codex', args: ['--version'], tested: '0.171.0' }
}
