/**
 * Notices when the harness that started a hook is gone, so a waiting request is recorded as
 * abandoned within a second or two instead of hanging on for minutes. The harness is the hook's
 * parent process, or the parent of the shell that runs the hook command (`sh -c`); it is gone
 * when it no longer exists, is a zombie, or has a new parent (its own parent was killed and it
 * was re-parented, as a shell left behind by a killed harness is). On Linux it reads
 * `/proc/<pid>/stat`; elsewhere it asks with signal 0 and watches the hook's own parent id.
 */
import { readFileSync } from 'node:fs'
import { processAlive } from '../process-alive'

/** How often the parent chain is checked. */
export const HARNESS_POLL_MS = 250

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'ash', 'busybox', 'fish'])

interface ProcInfo {
  comm: string
  state: string
  ppid: number
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

/** The processes to watch: the parent, and its parent when the parent is a shell; with their parents now. */
function chain(): { pid: number; ppid: number }[] {
  const out: { pid: number; ppid: number }[] = []
  let pid = process.ppid
  for (let depth = 0; depth < 2 && pid > 1; depth++) {
    const info = procInfo(pid)
    if (!info) break
    out.push({ pid, ppid: info.ppid })
    if (!SHELLS.has(info.comm)) break
    pid = info.ppid
  }
  return out
}

/** An AbortSignal aborted when the harness is gone; `stop()` ends the watch. */
export function watchHarness(pollMs = HARNESS_POLL_MS): { signal: AbortSignal; stop(): void } {
  const c = new AbortController()
  const myParent = process.ppid
  const watched = process.platform === 'linux' ? chain() : []
  const gone = (): boolean => {
    if (process.ppid !== myParent) return true
    if (process.platform !== 'linux') return !processAlive(myParent)
    return watched.some(({ pid, ppid }) => {
      const info = procInfo(pid)
      return !info || info.state === 'Z' || info.state === 'X' || info.ppid !== ppid
    })
  }
  const timer = setInterval(() => {
    if (gone()) {
      clearInterval(timer)
      c.abort()
    }
  }, pollMs)
  timer.unref()
  return { signal: c.signal, stop: () => clearInterval(timer) }
}
