/**
 * Starts the session hook's worker detached: its own process group and session, no pipes shared
 * with the hook, so the hook (and the harness waiting on it) can finish at once and a harness that
 * kills its hooks' process group leaves the worker to finish its one append.
 */
import { spawn } from 'node:child_process'

/** Starts `node <script> <arg>` detached in `cwd`; never throws for a failed start (nobody waits for it). */
export function startDetached(script: string, arg: string, cwd?: string): void {
  const child = spawn(process.execPath, [script, arg], { detached: true, stdio: 'ignore', cwd: cwd || undefined })
  child.on('error', () => {})
  child.unref()
}
