/**
 * Gate health: every gate this home installed (`gate-records.ts`) or finds in a harness's default
 * settings file, one row per hook event, each checked as the harness would run it:
 * - installed: Muster's entry is still in the settings;
 * - starts: the command resolves (the launcher, its node and the build it points to exist) and
 *   answers the gate probe through the shell, exactly as the harness runs it;
 * - fails closed: the harness's version (its own `--version`) and what it does on each fault it
 *   can block (its file's `faults`; Claude Code's `onFailure` from 2.1.295);
 * - trust: for a harness that runs only trusted hooks (Codex), its own trust records;
 * - hub: the hub the command chooses (`openChosenHub`, as the hook does) exists, answers and takes
 *   writes; and when its agent's last request reached it.
 * Everything that waits (processes, a hub server) is asynchronous: this runs in a worker thread
 * for the app and `muster serve` (`gate-monitor.ts`), in the process for `muster gates`.
 */
import { execFile, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { accessSync, constants, existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse as parseToml } from 'smol-toml'
import type { GateCheck, GateHealth } from '../../shared/contract/gates-types'
import { EventType } from '../../shared/contract/hub-vocabulary'
import type { PalaceEnv, RegisteredHubs } from '../hub'
import { openChosenHub } from '../hub/open'
import { noHubReason } from './approve-hook'
import { LAUNCHER_FILE, readLauncher } from './gate-launcher'
import { readGateRecords, type GateRecord } from './gate-records'
import { shellWords, wordOption } from './gate-words'
import { adapterFor, compareVersions, HARNESS_LIST, type HarnessAdapter } from './harnesses'
import { findInstalled, installedEvents } from './hook-install'
import { GATE_PROBE, GATE_PROBE_ANSWER } from './hook-input'

/** What a check looks at. */
export interface GateHealthOptions {
  /** Muster's home (its records, its launcher, its hub registry). */
  home: string
  /** The user's home folder (default settings files, Codex's trust records). */
  userHome: string
  env: PalaceEnv & { PATH?: string; CODEX_HOME?: string }
  cwd: string
  /** The home's registered hubs (null: no state DB). */
  registry: RegisteredHubs | null
  /** The previous report: a gate in the same state keeps its `since`. */
  previous?: readonly GateHealth[]
  /** Only the gates in this settings file (install checks the gate it just wrote). */
  file?: string
  now?: Date
}

/** How long the probe and a harness's `--version` may take (a busy machine). */
const PROCESS_TIMEOUT_MS = 20_000

const ok = (text: string): GateCheck => ({ ok: true, text, fix: null })
const bad = (text: string, fix: string | null): GateCheck => ({ ok: false, text, fix })
const na = (text: string): GateCheck => ({ ok: null, text, fix: null })

/** Runs `/bin/sh -c command` with `input` on stdin, as a harness runs a hook; its exit code and stderr. */
function runShell(command: string, input: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', command], { env, stdio: ['pipe', 'ignore', 'pipe'] })
    let stderr = ''
    const timer = setTimeout(() => child.kill('SIGKILL'), PROCESS_TIMEOUT_MS)
    child.stderr.on('data', (d: Buffer) => (stderr += d))
    child.on('error', (err) => {
      clearTimeout(timer)
      resolve({ code: null, stderr: err.message })
    })
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stderr })
    })
    child.stdin.on('error', () => {})
    child.stdin.end(input)
  })
}

/** The harness's version from its own command on PATH, or null when it cannot be run. */
function versionOf(h: HarnessAdapter, env: NodeJS.ProcessEnv): Promise<string | null> {
  return new Promise((resolve) =>
    execFile(h.versions.bin, [...h.versions.args], { env, timeout: PROCESS_TIMEOUT_MS, encoding: 'utf8' }, (err, out) =>
      resolve(err ? null : (/(\d+\.\d+\.\d+)/.exec(out)?.[1] ?? null))
    )
  )
}

/** One gate to check: its harness, settings file, events and record. */
interface Found {
  h: HarnessAdapter
  file: string
  events: string[]
  record: GateRecord | null
}

/** The gates to check: the home's records, and Muster's gates in each harness's default settings file. */
export function foundGates(home: string, userHome: string): Found[] {
  const out: Found[] = []
  for (const r of readGateRecords(home)) {
    const h = adapterFor(r.harness)
    if (h) out.push({ h, file: r.file, events: r.events, record: r })
  }
  for (const h of HARNESS_LIST) {
    if (h.settings.under !== 'home') continue
    const file = join(userHome, ...h.settings.path)
    if (out.some((g) => g.h === h && g.file === file)) continue
    const events = h.gate.plugin ? (pluginCommand(file, h) ? [...h.gate.defaultEvents] : []) : installedEvents(file, 'approve-hook')
    if (events.length) out.push({ h, file, events, record: null })
  }
  return out
}

/** The command line of Muster's plugin file (OpenCode), or null. */
function pluginCommand(file: string, h: HarnessAdapter): string | null {
  if (!existsSync(file)) return null
  const text = readFileSync(file, 'utf8')
  if (!text.startsWith(h.gate.plugin!.mark)) return null
  const m = /^const COMMAND = ("(?:[^"\\]|\\.)*")$/m.exec(text)
  return m ? (JSON.parse(m[1]!) as string) : null
}

/** The installed command and entry of a gate's event, or null when Muster's entry is gone. */
function installed(g: Found, event: string): { command: string; entry: Record<string, unknown>; index: number } | null {
  if (g.h.gate.plugin) {
    const command = pluginCommand(g.file, g.h)
    return command ? { command, entry: {}, index: 0 } : null
  }
  let found: ReturnType<typeof findInstalled>
  try {
    found = findInstalled(g.file, event, 'approve-hook')
  } catch {
    return null
  }
  if (!found) return null
  const hook = Array.isArray(found.entry.hooks) ? (found.entry.hooks[0] as Record<string, unknown>) : found.entry
  const command = [hook.command, hook.bash].find((c): c is string => typeof c === 'string')
  return command ? { command, entry: found.entry, index: found.index } : null
}

/** How to install this gate again (the fix of a gate that is gone or broken in its settings). */
function reinstall(g: Found, agent: string | null): string {
  const mode = g.record?.mode ? ` --mode ${g.record.mode}` : ''
  return `muster approve-hook install --harness ${g.h.name} --agent ${agent ?? 'ID'}${mode} --settings ${g.file}`
}

/** Does the command start and answer the probe? */
async function checkStarts(command: string, words: string[], env: NodeJS.ProcessEnv): Promise<GateCheck> {
  const program = words[0] ?? ''
  const viaLauncher = program.endsWith(`/${LAUNCHER_FILE}`)
  if (viaLauncher) {
    const home = program.slice(0, -`/bin/${LAUNCHER_FILE}`.length)
    if (!existsSync(program)) return bad(`the gate launcher ${program} is gone`, 'muster gates --repair')
    try {
      accessSync(program, constants.X_OK)
    } catch {
      return bad(`the gate launcher ${program} cannot be run (not executable)`, 'muster gates --repair')
    }
    const target = readLauncher(home)
    if (!target) return bad(`${program} is not Muster's gate launcher`, 'muster gates --repair')
    if (!existsSync(target.build))
      return bad(`the launcher's build ${target.build} is gone (moved or uninstalled): every call is blocked`, 'muster gates --repair')
    if (!existsSync(target.node)) return bad(`the launcher's node ${target.node} is gone: every call is blocked`, 'muster gates --repair')
  }
  const r = await runShell(command, GATE_PROBE, env)
  const said = r.stderr.trim().split('\n').filter(Boolean)
  if (said.some((l) => l.startsWith(GATE_PROBE_ANSWER)))
    return ok(
      viaLauncher ? 'starts (through the gate launcher)' : 'starts (not through the gate launcher: moving or upgrading Muster breaks it)'
    )
  const why = said.find((l) => l.startsWith('muster')) ?? said[0] ?? `exit code ${r.code}`
  return bad(`does not start: ${why}`, viaLauncher ? 'muster gates --repair' : null)
}

/** Does the harness block what it can, in this version, with this entry? */
function checkFailsClosed(h: HarnessAdapter, entry: Record<string, unknown>, version: string | null): GateCheck {
  const runs = Object.entries(h.faults).filter(([f, v]) => f !== 'untrusted' && (v.outcome === 'runs' || v.outcome === 'partly'))
  const named = version ? `${h.label} ${version}` : `${h.label} (${h.versions.bin} not found on PATH)`
  const since = h.versions.failClosedSince
  if (since) {
    const hook = Array.isArray(entry.hooks) ? (entry.hooks[0] as Record<string, unknown>) : entry
    if (version && compareVersions(version, since) < 0)
      return bad(
        `${named} predates ${since}: a hook that cannot run lets the call through`,
        `update ${h.label} to ${since} or later, then install the gate again`
      )
    if (hook.onFailure !== 'block')
      return bad(`${named}: the entry has no onFailure "block", so a hook that cannot run lets the call through`, 'install the gate again')
  }
  if (runs.length) return bad(`${named}: not blocked: ${runs.map(([, v]) => v.how).join('; ')}`, null)
  return version
    ? ok(`${named}: every fault it lets a hook block is blocked`)
    : na(`${named}: its faults are blocked as its release ${h.versions.tested} does`)
}

/** Does the harness run this hook (its own trust records)? */
function checkTrust(
  h: HarnessAdapter,
  file: string,
  event: string,
  index: number,
  entry: Record<string, unknown>,
  o: GateHealthOptions
): GateCheck {
  const t = h.trust
  if (t.kind === 'none' || !t.check || !t.store) return na(`${h.label} runs every hook in its settings`)
  const dir = t.store.envDir ? (o.env as Record<string, string | undefined>)[t.store.envDir] : undefined
  const store = dir ? join(dir, ...t.store.path.slice(1)) : join(o.userHome, ...t.store.path)
  let records: Record<string, unknown> = {}
  try {
    if (existsSync(store)) records = parseToml(readFileSync(store, 'utf8'))
  } catch (err) {
    return bad(`cannot read ${store}: ${(err as Error).message}`, null)
  }
  const state = t.check({ file, event, group: index, handler: 0, entry }, records, (text) =>
    createHash('sha256').update(text).digest('hex')
  )
  const review = `open \`${h.versions.bin}\` (the TUI), then /hooks, and trust Muster's ${event} hook`
  if (state === 'trusted') return ok(`trusted by ${h.label}`)
  if (state === 'disabled') return bad(`switched off in ${h.label} (/hooks)`, review)
  const exec = event === 'PreToolUse' ? '`codex exec` runs every command ungated' : `${h.label} skips it`
  return bad(
    `${state === 'modified' ? 'changed since you trusted it' : 'untrusted'}: ${exec} until you trust it in the ${h.label} TUI`,
    review
  )
}

/** Can the hub the command chooses be reached, and when did its agent's last request reach it? */
async function checkHub(
  words: string[],
  agent: string | null,
  o: GateHealthOptions
): Promise<{ check: GateCheck; hub: string | null; last: string | null }> {
  const sel = { hub: wordOption(words, '--hub'), palace: wordOption(words, '--palace') }
  const gateHome = wordOption(words, '--home')
  const registry = !gateHome || gateHome === o.home ? o.registry : null
  const { choice, hub } = await openChosenHub(
    registry,
    sel,
    { env: o.env, cwd: o.cwd },
    { home: o.home, lockTimeoutMs: 2_000, callTimeoutMs: 3_000 }
  )
  const name = choice?.name ?? null
  const fix = noHubReason('').replace(/^.*Fix: /, '')
  if ('unreachable' in hub) return { check: bad(`no hub: ${hub.unreachable}`, fix), hub: name, last: null }
  try {
    const s = await hub.status()
    if (!s.exists) return { check: bad(`no hub: ${s.offline_reason ?? `no hub at ${hub.label}`}`, fix), hub: name, last: null }
    if (!s.online) return { check: bad(`hub ${name} is offline: ${s.offline_reason ?? 'no answer'}`, fix), hub: name, last: null }
    if (s.read_only) return { check: bad(`hub ${name} is read-only (${s.read_only_reason})`, fix), hub: name, last: null }
    let last: string | null = null
    if (agent) {
      const page = await hub.list({ type: EventType.approvalRequest, from_agent: agent, order: 'desc', limit: 1 })
      last = page.events[0]?.created_at ?? null
    }
    return { check: ok(`hub ${name} answers`), hub: name, last }
  } catch (err) {
    return { check: bad(`hub ${name} cannot be read: ${(err as Error).message}`, fix), hub: name, last: null }
  } finally {
    await hub.close()
  }
}

/** Checks one event of one gate. */
async function checkOne(
  g: Found,
  event: string,
  o: GateHealthOptions,
  versions: Map<HarnessAdapter, Promise<string | null>>
): Promise<GateHealth> {
  const key = `${g.h.id}:${g.file}:${event}`
  const at = installed(g, event)
  const words = at ? shellWords(at.command) : []
  const agent = wordOption(words, '--agent') ?? g.record?.agent ?? null
  const env = { ...process.env, ...o.env } as NodeJS.ProcessEnv
  const gone = bad(`Muster's ${event} hook is no longer in ${g.file}`, reinstall(g, agent))
  const skipped = na('not checked (not installed)')
  let checks: GateHealth['checks']
  let hub: string | null = null
  let last: string | null = null
  if (!at) checks = { installed: gone, starts: skipped, fails_closed: skipped, trust: skipped, hub: skipped }
  else {
    if (!versions.has(g.h)) versions.set(g.h, versionOf(g.h, env))
    const [starts, version, hubbed] = await Promise.all([
      checkStarts(at.command, words, env),
      versions.get(g.h)!,
      checkHub(words, agent, o)
    ])
    const failsClosed = checkFailsClosed(g.h, at.entry, version)
    hub = hubbed.hub
    last = hubbed.last
    checks = {
      installed: ok(`in ${g.file}`),
      starts,
      fails_closed: failsClosed,
      trust: checkTrust(g.h, g.file, event, at.index, at.entry, o),
      hub: hubbed.check
    }
  }
  const failing = Object.values(checks).find((c) => c.ok === false) ?? null
  const now = (o.now ?? new Date()).toISOString()
  const before = o.previous?.find((p) => p.key === key)
  const problem = failing?.text ?? null
  return {
    key,
    harness: g.h.id,
    label: g.h.label,
    file: g.file,
    event,
    mode: g.record?.mode ?? null,
    agent,
    command: at?.command ?? null,
    checks,
    hub,
    last_request: last,
    ok: !failing,
    problem,
    fix: failing?.fix ?? null,
    since: before && before.ok === !failing && before.problem === problem ? before.since : now
  }
}

/** Checks every gate of the home, one row per hook event. */
export async function checkGates(o: GateHealthOptions): Promise<GateHealth[]> {
  const versions = new Map<HarnessAdapter, Promise<string | null>>()
  const rows: Promise<GateHealth>[] = []
  for (const g of foundGates(o.home, o.userHome))
    if (!o.file || g.file === o.file) for (const event of g.events) rows.push(checkOne(g, event, o, versions))
  return Promise.all(rows)
}
