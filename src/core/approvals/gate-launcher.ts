/**
 * The gate launcher: one small file at a fixed path in Muster's home (`<home>/bin/muster-gate.cjs`)
 * that every harness's settings name instead of Muster's build. It requires the build it points
 * to in its own process (no second process: it stays as fast as the build's own entry) and hands
 * it the hook call. When that build cannot start (moved, deleted, upgraded to something broken,
 * crashing while it loads, exiting with a code a harness reads as "go ahead"), the launcher answers
 * "blocked" in the calling harness's own format, with the reason and the fix. So moving or
 * upgrading Muster only rewrites this file, never the harness settings: the installed command line
 * stays the same (Codex keeps trusting it) and a broken build never turns into "run everything".
 * A lifecycle hook (`session-hook`) is never blocked: on a fault it says why on stderr and exits 0.
 *
 * The file is written whole by `approve-hook install`, `session-hook install` and `muster gates`;
 * it holds the node that runs it (its `#!` line), the build's entry and, per harness and event, the
 * answer that blocks there (from each harness's own `refuse`, so it needs nothing of the build).
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { makeDirSync } from '../make-dir'
import { HARNESS_LIST } from './harnesses'
import { exitTwo, type HookReply } from './harnesses/types'

/** The launcher's folder in the home, and its file name (`.cjs`: CommonJS whatever package.json sits above). */
export const LAUNCHER_DIR = 'bin'
export const LAUNCHER_FILE = 'muster-gate.cjs'
/** The launcher's second line: how Muster knows the file is its own. */
export const LAUNCHER_MARK = "// muster-gate: Muster's gate launcher, written by Muster; do not edit"

/** The reason's place in an answer template. */
const MARK = '@@muster-gate-reason@@'

/** The launcher's path in a home. */
export function launcherPath(home: string): string {
  return join(home, LAUNCHER_DIR, LAUNCHER_FILE)
}

/** What a launcher runs: the node of its `#!` line and the build's entry (`bin/muster.cjs`). */
export interface LauncherTarget {
  node: string
  build: string
}

/** The answers that block, per `harness:event` and per harness (and `''` for none known), with the reason marked. */
function refusals(): Record<string, HookReply> {
  const out: Record<string, HookReply> = { '': exitTwo(MARK) }
  for (const h of HARNESS_LIST) {
    out[h.id] = h.refuse(MARK)
    for (const e of h.gate.events) out[`${h.id}:${e}`] = h.refuse(MARK, e)
  }
  return out
}

/** The `#!` line: the node by absolute path where the kernel can take it, else node from PATH. */
function shebang(node: string): string {
  return /^\/\S+$/.test(node) && node.length < 120 ? `#!${node}` : '#!/usr/bin/env node'
}

/** The launcher's source for one target. */
export function launcherSource(t: LauncherTarget): string {
  return `${shebang(t.node)}
${LAUNCHER_MARK}
// The harness settings name this file, not the build: see src/core/approvals/gate-launcher.ts.
'use strict'
const BUILD = ${JSON.stringify(t.build)}
const NODE = ${JSON.stringify(t.node)}
const MARK = ${JSON.stringify(MARK)}
const REFUSALS = ${JSON.stringify(refusals())}
const fs = require('node:fs')
const args = process.argv.slice(2)
const kind = args.find((a) => a === 'approve-hook' || a === 'session-hook') || 'approve-hook'
const opt = (name) => {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === name) return args[i + 1]
    if (args[i].startsWith(name + '=')) return args[i].slice(name.length + 1)
  }
  return undefined
}
const write = (fd, text) => {
  const bytes = Buffer.from(text)
  for (let at = 0; at < bytes.length; ) {
    try {
      at += fs.writeSync(fd, bytes, at)
    } catch (err) {
      if (err.code !== 'EAGAIN') return
    }
  }
}
/** The hook event the payload names, when stdin is still unread (the build never started). */
function eventOnStdin() {
  try {
    if (require('node:tty').isatty(0)) return ''
    const o = JSON.parse(fs.readFileSync(0, 'utf8'))
    return String(o.hook_event_name || o.hookName || o.type || '')
  } catch {
    return ''
  }
}
let refused = false
/** Answers "blocked" in the harness's own format (a lifecycle hook: a line on stderr, exit 0). */
function refuse(why) {
  if (refused) return
  refused = true
  if (kind === 'session-hook') {
    write(2, 'muster session-hook: nothing recorded: ' + why + '\\n')
    process.exitCode = 0
    return
  }
  const reason = 'muster approve-hook: ' + why + '; the call is blocked'
  const harness = opt('--harness') || ''
  const t = REFUSALS[harness + ':' + (opt('--event') || eventOnStdin())] || REFUSALS[harness] || REFUSALS['']
  if (t.stdout) write(1, t.stdout.split(MARK).join(JSON.stringify(reason).slice(1, -1)))
  write(2, reason + '\\n')
  process.exitCode = t.exitCode
}
const fix = 'run \`muster gates\` (or start Muster once) to point the gate at the installed build'
process.on('uncaughtException', (err) => {
  refuse('Muster crashed (' + (err && err.message ? err.message : String(err)) + ')')
  process.exit()
})
// an exit code a harness reads as "go ahead" or as its own failure (anything but 0 and 2) blocks instead
process.on('exit', (code) => {
  if (code !== 0 && code !== 2) refuse('Muster ended with exit code ' + code)
})
let build = null
try {
  build = require(BUILD)
} catch (err) {
  refuse(
    err && err.code === 'MODULE_NOT_FOUND' && !fs.existsSync(BUILD)
      ? "Muster's build at " + BUILD + ' is gone (moved or uninstalled); ' + fix
      : "Muster's build at " + BUILD + ' cannot start (' + (err && err.message ? err.message.split('\\n')[0] : String(err)) + '); ' + fix
  )
  process.exit()
}
if (!build || typeof build.main !== 'function') {
  refuse("Muster's build at " + BUILD + ' is too old for this gate; ' + fix)
  process.exit()
}
try {
  build.main(args, { fault: (why) => (refuse(why + '; ' + fix), process.exit()) })
} catch (err) {
  refuse('Muster crashed (' + (err && err.message ? err.message : String(err)) + ')')
  process.exit()
}
`
}

/** Writes the launcher for `target` into the home (executable); what it did. */
export function writeLauncher(home: string, target: LauncherTarget): 'written' | 'unchanged' {
  const file = launcherPath(home)
  const source = launcherSource(target)
  if (existsSync(file) && readFileSync(file, 'utf8') === source) return 'unchanged'
  makeDirSync(dirname(file))
  const tmp = `${file}.${process.pid}.muster.tmp`
  writeFileSync(tmp, source, { mode: 0o755 })
  renameSync(tmp, file)
  return 'written'
}

/** The target of the launcher in a home, or null when there is none (or it is not Muster's). */
export function readLauncher(home: string): LauncherTarget | null {
  const file = launcherPath(home)
  if (!existsSync(file)) return null
  const text = readFileSync(file, 'utf8')
  if (!text.split('\n', 2)[1]?.startsWith(LAUNCHER_MARK)) return null
  const value = (name: string): string | null => {
    const m = new RegExp(`^const ${name} = ("(?:[^"\\\\]|\\\\.)*")$`, 'm').exec(text)
    return m ? (JSON.parse(m[1]!) as string) : null
  }
  const build = value('BUILD')
  const node = value('NODE')
  return build && node ? { build, node } : null
}
