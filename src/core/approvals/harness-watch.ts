/**
 * Notices when the harness that started a hook is gone, so a waiting request is recorded as
 * abandoned within a second or two instead of hanging on for minutes. On Linux the hook walks its
 * ancestors (`/proc/<pid>/stat` and `cmdline`) up to the harness, a process that runs one of the
 * known harness programs (`versions.bin` of each harness file: `claude`, `codex`, `node …/gemini`),
 * through any wrappers between them (`sh -c`, a wrapper script, `npx`, the gate launcher). The
 * harness is gone when it no longer exists or is a zombie, or when a process between it and the
 * hook has a new parent (it was re-parented: the harness above it was killed). Without a known
 * harness in the first few ancestors it watches its parent, and the parent's parent when the
 * parent is a shell. Elsewhere it asks with signal 0 and watches the hook's own parent id.
 */
import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { processAlive } from '../process-alive'
import { HARNESS_LIST } from './harnesses'

/** How often the watched processes are checked. */
export const HARNESS_POLL_MS = 250

/** How far up the walk looks for the harness (hook, shell, wrapper, npx, npm, node: a few levels). */
const MAX_DEPTH = 8

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'ash', 'busybox', 'fish'])

interface ProcInfo {
  comm: string
  state: string
  ppid: number
}

/** A watched process: its parent when the walk saw it, and whether a new parent means it is gone. */
interface Watched {
  pid: number
  ppid: number
  /** False for the harness itself: a harness may be re-parented (disowned) and still run. */
  checkParent: boolean
}

/** One process's name, state and parent from `/proc`, or null when it does not exist (or is unreadable). */
function procInfo(pid: number): ProcInfo | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const open = stat.indexOf('(')
    const close = stat.lastIndexOf(')')
    const rest = stat.slice(close + 2).split(' ')
    return { comm: stat.slice(open + 1, close), state: rest[0] ?? '', ppid: Number(rest[1]) }
  } catch {
    return null
  }
}

/** The first words of a process's command line (program, script), or none when unreadable. */
function argvOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, 3)
  } catch {
    return []
  }
}

/** A program name without a script or executable suffix (`claude.exe`, `gemini.js` are `claude`, `gemini`). */
function programName(word: string): string {
  return basename(word).replace(/\.(exe|js|cjs|mjs)$/i, '')
}

/** True when the process runs one of `bins` (by its name, or its program or script on the command line). */
export function runsHarness(pid: number, comm: string, bins: ReadonlySet<string>): boolean {
  if (bins.has(programName(comm))) return true
  return argvOf(pid).some((word) => word !== '' && !word.startsWith('-') && bins.has(programName(word)))
}

/** The programs of every known harness. */
function harnessBins(): Set<string> {
  return new Set(HARNESS_LIST.map((h) => h.versions.bin))
}

/**
 * The processes to watch, from the hook's parent up to the harness; without a known harness in
 * reach, the parent and (when the parent is a shell) its parent.
 */
export function harnessChain(bins: ReadonlySet<string> = harnessBins(), start = process.ppid): Watched[] {
  const walk: Watched[] = []
  let pid = start
  for (let depth = 0; depth < MAX_DEPTH && pid > 1; depth++) {
    const info = procInfo(pid)
    if (!info) break
    if (runsHarness(pid, info.comm, bins)) return [...walk, { pid, ppid: info.ppid, checkParent: false }]
    walk.push({ pid, ppid: info.ppid, checkParent: true })
    pid = info.ppid
  }
  // no harness found: the parent, and its parent when the parent is a shell (`sh -c`)
  const near = walk.slice(0, 1)
  const parent = walk[0] && procInfo(walk[0].pid)
  if (parent && SHELLS.has(parent.comm) && walk[1]) near.push(walk[1])
  return near
}

/** An AbortSignal aborted when the harness is gone; `check()` looks now (and aborts when gone); `stop()` ends the watch. */
export function watchHarness(pollMs = HARNESS_POLL_MS): { signal: AbortSignal; check(): boolean; stop(): void } {
  const c = new AbortController()
  const myParent = process.ppid
  const watched = process.platform === 'linux' ? harnessChain() : []
  const gone = (): boolean => {
    if (process.ppid !== myParent) return true
    if (process.platform !== 'linux') return !processAlive(myParent)
    return watched.some(({ pid, ppid, checkParent }) => {
      const info = procInfo(pid)
      return !info || info.state === 'Z' || info.state === 'X' || (checkParent && info.ppid !== ppid)
    })
  }
  const timer = setInterval(() => {
    if (gone()) {
      clearInterval(timer)
      c.abort()
    }
  }, pollMs)
  timer.unref()
  const check = (): boolean => {
    if (!c.signal.aborted && gone()) {
      clearInterval(timer)
      c.abort()
    }
    return c.signal.aborted
  }
  return { signal: c.signal, check, stop: () => clearInterval(timer) }
}
