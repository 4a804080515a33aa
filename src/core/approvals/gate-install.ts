/**
 * Installs Muster's gate (the approvals hook) and its lifecycle hooks into a harness, as the
 * harness's own file says (`harnesses/<harness>.ts`: settings location, events, entry shape,
 * plugin, notes): `muster approve-hook install`, `muster session-hook install` and any future
 * caller (a "connect agents" screen) go through here and only map their options and print.
 * The settings file is edited by `hook-install.ts` (byte for byte outside Muster's own entry).
 */
import { resolve } from 'node:path'
import { ApiError } from '../../shared/api-error'
import { AGENT_ID_MESSAGE, isAgentId } from '../../shared/agent-id'
import { DEFAULT_HOOK_TIMEOUT_MS } from './approve-hook'
import { adapterFor, compareVersions, HARNESS_LIST, type HarnessAdapter } from './harnesses'
import { installedCommand, installHooks, shellQuote, uninstallHooks, type HookInstallResult } from './hook-install'
import { installOwnFile, uninstallOwnFile } from './plugin-file'
import { launcherPath, writeLauncher, type LauncherTarget } from './gate-launcher'
import { forgetGate, recordGate } from './gate-records'
import { disableReceipts, enableReceipts } from './receipt-markers'

/** The lifecycle hook's own timeout in the harness (it returns in milliseconds; this only bounds a stuck start). */
export const SESSION_HOOK_TIMEOUT_SEC = 10

/** Where the install runs: the folders default settings paths are relative to. */
export interface InstallPlace {
  /** The user's home folder (`~`). */
  userHome: string
  /** The current folder (Copilot CLI's hooks file is per repository). */
  cwd: string
}

/**
 * How the harness starts Muster: through the gate launcher in a home (written now, pointing at
 * `target`), or an explicit program (`--command`; nothing fails closed for it beyond what the
 * harness does itself).
 */
export type HookProgram = { launcher: { home: string; target: LauncherTarget } } | { command: string }

/** The program of an install: the launcher's path (after writing it), or the command as given. */
function programOf(p: HookProgram): string {
  if ('command' in p) return p.command
  writeLauncher(p.launcher.home, p.launcher.target)
  return shellQuote(launcherPath(p.launcher.home))
}

/** What the installed command names besides the agent: Muster's home, the hub, the project. */
export interface HookTarget {
  agent: string
  /** `--home` as given (absolute). */
  home?: string
  palace?: string
  hub?: string
  project?: string
}

/** Options of an approvals gate install. */
export interface GateInstallOptions extends HookTarget {
  harness: HarnessAdapter
  /** The settings file (default: the harness's own). */
  settings?: string
  /** Hook events, comma-separated (default: the harness's default set). */
  event?: string
  /** A named set of events (Codex: interactive, exec, both). */
  mode?: string
  /** Tool-name regex; `*` or empty for every tool. */
  matcher?: string
  timeoutMs?: number
  program: HookProgram
  /** The operator key ids the hook trusts. */
  operatorKeys: readonly string[]
  /** The harness's version as its own command prints it, or null when it was not found. */
  version: string | null
  /** Muster's home: the gate is recorded there (`gates.json`), for gate health. */
  recordIn: string
}

/** What an install did, with what the operator should know. */
export interface GateInstallResult extends HookInstallResult {
  command: string
  /** What reaches the operator through each installed event. */
  what: Record<string, string>
  notes: string[]
}

/** The harness a `--harness` name stands for, or a clear error naming the choices. */
export function harnessNamed(name: string, choices: readonly HarnessAdapter[] = HARNESS_LIST, why = ''): HarnessAdapter {
  const h = adapterFor(name)
  if (!h || !choices.includes(h))
    throw new ApiError(`--harness must be ${choices.map((c) => c.name).join(', ')}${why}, got '${name}'`, 'invalid_input')
  return h
}

/** The settings file an install edits: the one given (relative to `cwd`), else the harness's own. */
export function settingsFile(h: HarnessAdapter, place: InstallPlace, given?: string): string {
  if (given) return resolve(place.cwd, given)
  return resolve(h.settings.under === 'home' ? place.userHome : place.cwd, ...h.settings.path)
}

/** The approval events to install, from `--event` (comma-separated) and `--mode`. */
export function gateEvents(h: HarnessAdapter, o: { event?: string; mode?: string }): string[] {
  const bad = (m: string): never => {
    throw new ApiError(m, 'invalid_input')
  }
  const modes = h.gate.modes
  if (o.mode !== undefined && !modes) {
    const withModes = HARNESS_LIST.filter((x) => x.gate.modes)
      .map((x) => `--harness ${x.name} (${Object.keys(x.gate.modes!).join(', ')})`)
      .join('; ')
    bad(`--mode is for ${withModes}`)
  }
  if (modes && o.mode !== undefined) {
    const chosen = modes[o.mode] ?? bad(`--mode must be ${Object.keys(modes).join(', ')}, got '${o.mode}'`)
    if (o.event && o.event.split(',').some((e) => !chosen.includes(e.trim())))
      bad(
        `--mode ${o.mode} installs ${chosen.join(' and ')}; --event ${o.event} cannot work with it (Codex asks through PermissionRequest only in interactive sessions; \`codex exec\` never asks, so only the PreToolUse gate reaches it)`
      )
    return [...chosen]
  }
  if (!o.event) return [...h.gate.defaultEvents]
  const events = o.event.split(',').map((e) => e.trim())
  for (const e of events)
    if (!h.gate.events.includes(e)) bad(`--event for --harness ${h.name} must be ${h.gate.events.join(' or ')}, got '${e}'`)
  return events
}

/** The words after the program: `<kind> --agent A --harness H [--home ...] ...`. */
function targetWords(kind: string, harness: string, t: HookTarget): string[] {
  if (!isAgentId(t.agent)) throw new ApiError(`${AGENT_ID_MESSAGE}, got '${t.agent}'`, 'invalid_input')
  if (t.hub && t.palace) throw new ApiError('give --hub or --palace, not both', 'invalid_input')
  const words = [kind, '--agent', t.agent, '--harness', harness]
  if (t.home) words.push('--home', t.home)
  if (t.palace) words.push('--palace', t.palace)
  if (t.hub) words.push('--hub', t.hub)
  if (t.project) words.push('--project', t.project)
  return words
}

/** Installs (or updates) the approvals gate of one harness. */
export function installGate(o: GateInstallOptions, place: InstallPlace): GateInstallResult {
  const h = o.harness
  const file = settingsFile(h, place, o.settings)
  const timeoutMs = o.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS
  // the harness waits a little longer than the hook, so the hook's own timeout is the one recorded
  const timeoutSec = Math.ceil(timeoutMs / 1000) + 30
  const words = targetWords('approve-hook', h.id, o)
  if (o.timeoutMs !== undefined) words.push('--timeout-ms', String(timeoutMs))
  // the hook trusts the operator keys it is installed with: a key added to the home later is not trusted silently
  words.push('--operator-keys', o.operatorKeys.join(','))
  const tail = words.map(shellQuote).join(' ')

  const plugin = h.gate.plugin
  if (plugin) {
    if (o.event || o.matcher || o.mode)
      throw new ApiError(`--event, --matcher and --mode do not apply to ${h.label} (it asks through its server)`, 'invalid_input')
    const command = `${programOf(o.program)} ${tail}`
    const action = installOwnFile(file, plugin.source(command, timeoutSec), plugin.mark)
    const events = [...h.gate.defaultEvents]
    recordGate(o.recordIn, { harness: h.id, file, events, mode: null, agent: o.agent, installed_at: new Date().toISOString() })
    return {
      file,
      events,
      migrated_from: [],
      action,
      command,
      what: whatOf(h, events),
      notes: h.gate.notes?.({ version: o.version, changedEvents: [], action }) ?? []
    }
  }

  const events = gateEvents(h, o)
  const failClosed = !!o.version && !!h.versions.failClosedSince && compareVersions(o.version, h.versions.failClosedSince) >= 0
  const matcherFor = (event: string): string | undefined => {
    if (o.matcher === '*' || o.matcher === '') return undefined
    return o.matcher ?? h.gate.matcher?.(event)
  }
  // the launcher's path never changes, so a reinstall after a move or an upgrade leaves the
  // command line as it was and a harness that trusts hooks by their command (Codex) keeps trusting it
  const program = programOf(o.program)
  const commandFor = (event: string): { command: string; kept: boolean } => {
    const command = `${program} ${h.gate.eventInCommand ? `${tail} --event ${shellQuote(event)}` : tail}${h.gate.exitTwoOnFailure ? ' || exit 2' : ''}`
    return { command, kept: installedCommand(file, event, 'approve-hook') === command }
  }
  const planned = events.map((event) => ({ event, ...commandFor(event) }))
  const specs = planned.map((p) =>
    h.gate.entry!({ event: p.event, command: p.command, timeoutSec, matcher: matcherFor(p.event), failClosed })
  )
  const r = installHooks(file, specs, 'approve-hook', h.gate.fileBase)
  recordGate(o.recordIn, { harness: h.id, file, events, mode: o.mode ?? null, agent: o.agent, installed_at: new Date().toISOString() })
  const changedEvents = planned.filter((p) => !p.kept).map((p) => p.event)
  const notes = h.gate.notes?.({ version: o.version, events, changedEvents, action: r.action }) ?? []
  return { ...r, command: planned[0]!.command, what: whatOf(h, events), notes }
}

/** Removes the approvals gate of one harness from its settings file (and its record from the home). */
export function uninstallGate(h: HarnessAdapter, file: string, recordIn: string): HookInstallResult {
  forgetGate(recordIn, h.id, file)
  if (h.gate.plugin) return { file, events: [], migrated_from: [], action: uninstallOwnFile(file, h.gate.plugin.mark) }
  return uninstallHooks(file, 'approve-hook')
}

/** Options of a lifecycle hooks install. */
export interface LifecycleInstallOptions extends HookTarget {
  harness: HarnessAdapter
  settings?: string
  program: HookProgram
  /**
   * Also the receipt hooks (the harness's events after a call, and the ones ending a session's
   * waits): the approve-hook then leaves markers in `markersIn` (Muster's home) for them. Without
   * it an install takes them out again.
   */
  receipts?: boolean
  /** Muster's home, where the markers go (required with `receipts`). */
  markersIn?: string
}

/** What a lifecycle install did. */
export interface LifecycleInstallResult extends HookInstallResult {
  command: string
  notes: string[]
}

/** The harnesses with lifecycle hooks, in the order `--harness` lists them. */
export const LIFECYCLE_CHOICES = HARNESS_LIST.filter((h) => h.lifecycle)

/** Installs (or updates) the lifecycle hooks of one harness. */
export function installLifecycle(o: LifecycleInstallOptions, place: InstallPlace): LifecycleInstallResult {
  const h = o.harness
  const life = h.lifecycle
  if (!life || !h.gate.entry) throw new ApiError(`${h.label} has no lifecycle hooks`, 'invalid_input')
  if (o.receipts && !life.receipts) throw new ApiError(`${h.label} has no events after a call for receipts`, 'invalid_input')
  const file = settingsFile(h, place, o.settings)
  const base = `${programOf(o.program)} ${targetWords('session-hook', h.name, o).map(shellQuote).join(' ')}`
  const events = [
    ...Object.keys(life.events),
    ...(o.receipts && life.receipts ? [...Object.keys(life.receipts.ends), ...Object.keys(life.receipts.calls)] : [])
  ]
  const specs = events.map((event) =>
    h.gate.entry!({
      event,
      command: h.gate.eventInCommand ? `${base} --event ${shellQuote(event)}` : base,
      timeoutSec: SESSION_HOOK_TIMEOUT_SEC
    })
  )
  const r = installHooks(file, specs, 'session-hook', h.gate.fileBase)
  if (o.markersIn) {
    if (o.receipts) enableReceipts(o.markersIn, h.id)
    else disableReceipts(o.markersIn, h.id)
  }
  const notes = [
    ...(life.note ? [life.note] : []),
    ...(o.receipts && life.receipts?.since
      ? [`${h.label} sends every receipt event from ${life.receipts.since}; an older one sends what it has`]
      : [])
  ]
  return { ...r, command: base, notes }
}

/** Removes the lifecycle hooks from a settings file (and, given Muster's home, the harness's receipt markers). */
export function uninstallLifecycle(file: string, markers?: { home: string; harness: HarnessAdapter }): HookInstallResult {
  if (markers) disableReceipts(markers.home, markers.harness.id)
  return uninstallHooks(file, 'session-hook')
}

function whatOf(h: HarnessAdapter, events: readonly string[]): Record<string, string> {
  return Object.fromEntries(events.map((e) => [e, h.gate.what[e] ?? 'the calls it fires for']))
}
