/**
 * Connecting agents (`muster connect`, the Connect screen): which harnesses are on this machine
 * (their command on PATH and its version), whether Muster's approvals gate and session hooks are
 * in each one's settings, installing or removing both in one step (through `gate-install.ts`, the
 * same edits as `approve-hook install` and `session-hook install`), and a test request, marked as
 * one, that the operator answers in the inbox: no hook waits for it, so neither answer runs anything.
 */
import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs'
import { hostname } from 'node:os'
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ApiError } from '../../shared/api-error'
import { AGENT_ID_MAX } from '../../shared/agent-id'
import type { ConnectHub, HarnessConnection } from '../../shared/contract/connect-types'
import type { GateHealth } from '../../shared/contract/gates-types'
import { choiceReason, type HubService } from '../hub'
import { newApprovalId, requestAppend, type ApprovalAsk } from './approval-events'
import {
  installGate,
  installLifecycle,
  settingsFile,
  uninstallGate,
  uninstallLifecycle,
  type GateInstallResult,
  type HookProgram,
  type InstallPlace,
  type LifecycleInstallResult
} from './gate-install'
import { readGateRecords } from './gate-records'
import { harnessVersionOf } from './harness-version'
import { shellWords, wordOption } from './gate-words'
import { HARNESS_LIST, type HarnessAdapter } from './harnesses'
import type { HookInstallResult } from './hook-install'
import { installedCommand, installedEvents, shellQuote } from './hook-install'

/** Where connecting looks: the user's home and current folder (settings files), and PATH. */
export interface ConnectPlace extends InstallPlace {
  PATH?: string
}

/** How long a test request stays in the inbox. */
export const TEST_REQUEST_TIMEOUT_MS = 10 * 60_000
/** The command a test request shows: it is never run, whatever the answer. */
export const TEST_COMMAND = "echo 'Muster connect test: approving or denying this runs nothing'"

/** The file `bin` names on PATH (an executable file), or null. */
export function onPath(bin: string, PATH: string | undefined): string | null {
  const dirs = isAbsolute(bin) ? [''] : (PATH ?? '').split(delimiter).filter(Boolean)
  for (const dir of dirs) {
    const file = dir ? join(dir, bin) : bin
    try {
      if (!statSync(file).isFile()) continue
      accessSync(file, constants.X_OK)
      return file
    } catch {
      // not here
    }
  }
  return null
}

/** The agent id an install uses when none is given: this machine's short name and the harness (`mac-claude`). */
export function defaultAgent(h: HarnessAdapter, host = hostname()): string {
  const machine = (host.split('.')[0] ?? '').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'this'
  return `${machine}-${h.name}`.slice(0, AGENT_ID_MAX)
}

/** True when Muster's plugin file (OpenCode) is in place. */
function pluginInstalled(h: HarnessAdapter, file: string): boolean {
  try {
    return existsSync(file) && readFileSync(file, 'utf8').startsWith(h.gate.plugin!.mark)
  } catch {
    return false
  }
}

/** The agent the installed gate reports: its record in the home, else its command line. */
function gateAgent(h: HarnessAdapter, file: string, events: readonly string[], home: string): string | null {
  const rec = readGateRecords(home).find((r) => r.harness === h.id && r.file === file)
  if (rec) return rec.agent
  const command = events[0] && !h.gate.plugin ? installedCommand(file, events[0], 'approve-hook') : null
  return command ? (wordOption(shellWords(command), '--agent') ?? null) : null
}

/** One harness as found on this machine, its gate's health taken from `health` (rows of its settings file). */
export async function harnessConnection(
  h: HarnessAdapter,
  place: ConnectPlace,
  home: string,
  health: readonly GateHealth[],
  env: NodeJS.ProcessEnv = process.env
): Promise<HarnessConnection> {
  const path = onPath(h.versions.bin, place.PATH)
  const version = path ? await harnessVersionOf(h, path, env) : null
  const file = settingsFile(h, place)
  const events = h.gate.plugin ? (pluginInstalled(h, file) ? [...h.gate.defaultEvents] : []) : installedEvents(file, 'approve-hook')
  const sessionEvents = h.lifecycle ? installedEvents(file, 'session-hook') : []
  return {
    harness: h.id,
    name: h.name,
    label: h.label,
    bin: h.versions.bin,
    path,
    version,
    tested: h.versions.tested,
    settings: file,
    gate: { installed: events.length > 0, events, agent: events.length ? gateAgent(h, file, events, home) : null },
    session: { available: !!h.lifecycle && !!h.gate.entry, installed: sessionEvents.length > 0, events: sessionEvents },
    health: health.filter((g) => g.harness === h.id && g.file === file)
  }
}

/** Every harness Muster knows, in the README's order. */
export function harnessConnections(
  place: ConnectPlace,
  home: string,
  health: readonly GateHealth[],
  env: NodeJS.ProcessEnv = process.env
): Promise<HarnessConnection[]> {
  return Promise.all(HARNESS_LIST.map((h) => harnessConnection(h, place, home, health, env)))
}

/** What connecting one harness needs besides the harness itself. */
export interface ConnectOptions {
  harness: HarnessAdapter
  agent: string
  /** How the harness starts Muster (the gate launcher in `home`). */
  program: HookProgram
  /** The operator key ids the gate trusts. */
  operatorKeys: readonly string[]
  /** The harness's version (Claude Code's `onFailure` depends on it), or null. */
  version: string | null
  /** Muster's home: the gate's record and the receipt markers go there. */
  home: string
  /** `--home` written into the hooks' command (undefined: the default home). */
  installedHome?: string
}

/** Installs the approvals gate and (where the harness has them) the session hooks, as the two install commands do. */
export function connectHarness(
  o: ConnectOptions,
  place: InstallPlace
): { gate: GateInstallResult; session: LifecycleInstallResult | null } {
  const h = o.harness
  const target = { agent: o.agent, home: o.installedHome, program: o.program }
  const gate = installGate(
    {
      ...target,
      harness: h,
      operatorKeys: o.operatorKeys,
      version: h.versions.failClosedSince ? o.version : null,
      recordIn: o.home
    },
    place
  )
  const session = h.lifecycle && h.gate.entry ? installLifecycle({ ...target, harness: h, markersIn: o.home }, place) : null
  return { gate, session }
}

/** Removes the approvals gate and the session hooks of one harness from its settings. */
export function disconnectHarness(
  h: HarnessAdapter,
  place: InstallPlace,
  home: string
): { gate: HookInstallResult; session: HookInstallResult | null } {
  const file = settingsFile(h, place)
  const gate = uninstallGate(h, file, home)
  const session = h.lifecycle && h.gate.entry ? uninstallLifecycle(file, { home, harness: h }) : null
  return { gate, session }
}

/** The test request of a harness's agent: a shell command nobody runs, marked as a test. */
export function testAsk(h: HarnessAdapter, agent: string, operator: string): ApprovalAsk {
  return {
    agent,
    project: 'connect-test',
    to_agent: operator,
    harness: h.id,
    hook_event_name: 'connect-test',
    session_id: null,
    cwd: null,
    tool_use_id: null,
    tool_name: 'Bash',
    tool_input: {
      command: TEST_COMMAND,
      description: `Test request for ${h.label}: approve or deny it here; nothing runs either way`
    },
    timeout_ms: TEST_REQUEST_TIMEOUT_MS,
    test: true
  }
}

/** The hub a gate installed without `--hub` asks through, and whether it exists yet. */
export function connectHub(hubs: HubService): ConnectHub {
  const c = hubs.defaultHub()
  let exists = true
  try {
    hubs.chooseToRead({})
  } catch {
    exists = false
  }
  return { name: c.name, location: c.location, why: choiceReason(c.source), exists }
}

/**
 * Sends a test request into the hub a gate installed without `--hub` asks through (the default
 * hub). A hub that does not exist yet is refused (as the gate would find nobody to ask), never made.
 */
export async function sendTestRequest(
  hubs: HubService,
  ask: ApprovalAsk
): Promise<{ hub: string; id: string; correlation_id: string; summary: string }> {
  hubs.chooseToRead({})
  const correlationId = newApprovalId()
  const { append } = requestAppend(ask, correlationId)
  const r = await hubs.append({ ...append, body: `TEST: ${append.body}` })
  return { hub: r.hub, id: r.event.id, correlation_id: correlationId, summary: r.event.body }
}

/** This build's entry (`bin/muster.cjs`), found from this module's folder up; null when there is none. */
export function musterBuildEntry(from = import.meta.url): string | null {
  for (let dir = dirname(fileURLToPath(from)); ;) {
    const entry = join(dir, 'bin', 'muster.cjs')
    if (existsSync(entry)) return entry
    const up = dirname(dir)
    if (up === dir) return null
    dir = up
  }
}

/**
 * How a harness started from this process's install starts Muster: through the gate launcher in
 * `home`, pointing at this build and a node (this one; in the desktop app, whose executable is
 * not node, the node on PATH). Refused, with the command to run instead, when either is missing.
 */
export function launcherProgram(home: string, PATH: string | undefined): HookProgram {
  const build = musterBuildEntry()
  const node = process.versions.electron ? onPath('node', PATH) : process.execPath
  if (!build || !node)
    throw new ApiError(
      `cannot install from here: ${build ? 'no node on PATH to run the gate' : "this Muster build's bin/muster.cjs was not found"}; run \`muster connect NAME\` in a terminal instead`,
      'unavailable'
    )
  if (process.platform === 'win32') return { command: `${shellQuote(node)} ${shellQuote(build)}` }
  return { launcher: { home, target: { node: resolve(node), build } } }
}
