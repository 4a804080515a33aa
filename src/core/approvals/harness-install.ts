/**
 * What `muster approve-hook install` (and `session-hook install`) writes for each harness: the
 * settings file, the hook events, and each entry in the harness's own shape.
 * - Claude Code: `PermissionRequest` by default (it fires only where Claude Code would show its
 *   own dialog, whatever the permission mode or allow rules), `onFailure: "block"` where the
 *   installed Claude Code honours it (2.1.295+). `PreToolUse` (every matching call) only when asked.
 * - Codex: `PermissionRequest` for interactive sessions; `PreToolUse` as a deny-only gate for
 *   `codex exec`, which never asks.
 * - Gemini CLI: `BeforeTool` for the tools Gemini itself confirms (timeout in milliseconds).
 * - Copilot CLI: `permissionRequest` (or `preToolUse`), flat `{type, bash, timeoutSec}` entries
 *   in a `{"version": 1}` hooks file, `timeoutSec` above Muster's own wait.
 * - Cursor: `beforeShellExecution` and `beforeMCPExecution`, `failClosed: true`.
 * OpenCode has no hook command: `opencode-plugin.ts` writes its plugin.
 */
import { Harness, type HarnessId } from '../../shared/contract/hub-vocabulary'
import type { HookEntrySpec } from './hook-install'

/** The harnesses `install` knows, by the name `--harness` takes. */
export const INSTALL_HARNESSES = ['claude', 'codex', 'gemini', 'copilot', 'cursor', 'opencode'] as const
/** One of them. */
export type InstallHarness = (typeof INSTALL_HARNESSES)[number]

/** The harness id an install name stands for. */
export const HARNESS_ID: Record<InstallHarness, HarnessId> = {
  claude: Harness.claudeCode,
  codex: Harness.codex,
  gemini: Harness.gemini,
  copilot: Harness.copilot,
  cursor: Harness.cursor,
  opencode: Harness.opencode
}

/** Claude Code's PreToolUse, when chosen: only the tools that change things or reach out (never Read, Glob, Grep...). */
export const DEFAULT_PRE_TOOL_MATCHER = 'Bash|Edit|MultiEdit|Write|NotebookEdit|WebFetch|mcp__.*'
/** Gemini CLI's tools that it confirms by default (shell, writes, edits, fetches, MCP tools): never read_file, glob, grep... */
export const GEMINI_MATCHER = 'run_shell_command|write_file|replace|web_fetch|mcp_.*'
/** The first Claude Code that honours `onFailure` on command hooks. */
export const CLAUDE_ON_FAILURE_SINCE = '2.1.295'

/** Default settings file per harness, relative to the home folder (Copilot's: to the current folder). */
export const SETTINGS_FILE: Record<InstallHarness, { under: 'home' | 'cwd'; path: string[] }> = {
  claude: { under: 'home', path: ['.claude', 'settings.json'] },
  codex: { under: 'home', path: ['.codex', 'hooks.json'] },
  gemini: { under: 'home', path: ['.gemini', 'settings.json'] },
  copilot: { under: 'cwd', path: ['.github', 'hooks', 'muster.json'] },
  cursor: { under: 'home', path: ['.cursor', 'hooks.json'] },
  opencode: { under: 'home', path: ['.config', 'opencode', 'plugin', 'muster-approvals.js'] }
}

/** The hook events a harness answers approvals on, and its default. */
export const APPROVAL_EVENTS: Record<Exclude<InstallHarness, 'opencode'>, { events: readonly string[]; default: readonly string[] }> = {
  claude: { events: ['PermissionRequest', 'PreToolUse'], default: ['PermissionRequest'] },
  codex: { events: ['PermissionRequest', 'PreToolUse'], default: ['PermissionRequest'] },
  gemini: { events: ['BeforeTool'], default: ['BeforeTool'] },
  copilot: { events: ['permissionRequest', 'preToolUse'], default: ['permissionRequest'] },
  cursor: { events: ['beforeShellExecution', 'beforeMCPExecution', 'preToolUse'], default: ['beforeShellExecution', 'beforeMCPExecution'] }
}

/** A hooks file that starts with `{"version": 1}` when Muster creates it. */
export const FILE_BASE: Partial<Record<InstallHarness, Record<string, unknown>>> = { copilot: { version: 1 }, cursor: { version: 1 } }

/** What one entry needs. */
export interface EntryOptions {
  event: string
  /** The command line (for Copilot the event is appended to it by the caller). */
  command: string
  /** The harness's own timeout, in seconds. */
  timeoutSec: number
  /** Tool-name regex where the harness takes one; undefined = every tool. */
  matcher?: string
  /** Claude Code: write `onFailure: "block"`. */
  onFailureBlock?: boolean
}

/** One entry in the harness's own shape. */
export function harnessEntry(harness: Exclude<InstallHarness, 'opencode'>, o: EntryOptions): HookEntrySpec {
  const group = (hook: Record<string, unknown>): Record<string, unknown> => ({
    ...(o.matcher ? { matcher: o.matcher } : {}),
    hooks: [hook]
  })
  switch (harness) {
    case 'claude':
      return {
        event: o.event,
        entry: group({ type: 'command', command: o.command, timeout: o.timeoutSec, ...(o.onFailureBlock ? { onFailure: 'block' } : {}) })
      }
    case 'codex':
      return { event: o.event, entry: group({ type: 'command', command: o.command, timeout: o.timeoutSec }) }
    case 'gemini':
      return { event: o.event, entry: group({ type: 'command', name: 'muster', command: o.command, timeout: o.timeoutSec * 1000 }) }
    case 'copilot':
      return { event: o.event, entry: { type: 'command', bash: o.command, timeoutSec: o.timeoutSec } }
    case 'cursor':
      return {
        event: o.event,
        entry: { command: o.command, timeout: o.timeoutSec, failClosed: true, ...(o.matcher ? { matcher: o.matcher } : {}) }
      }
  }
}

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
