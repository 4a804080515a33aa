/**
 * Whether a process id names a live process: the one check behind leftover working files, claimed
 * hook jobs, patch runs and the harness watch. `kill(pid, 0)` sends nothing; EPERM means the
 * process exists but belongs to another user, which counts as live.
 */

/** True while a process with this id exists (this process always does). */
export function processAlive(pid: number): boolean {
  if (pid === process.pid) return true
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}
