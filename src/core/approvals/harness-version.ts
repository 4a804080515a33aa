/**
 * The installed harness's version, read from its own command (`claude --version` prints
 * `2.1.332 (Claude Code)`, `codex --version` `codex-cli 0.171.0`): install writes what that release
 * honours (Claude Code's `onFailure`), and gate health says whether it fails closed.
 */
import { execFile, execFileSync } from 'node:child_process'
import type { HarnessAdapter } from './harnesses'

/** `x.y.z` of the harness command at `bin` (default: the harness's own on PATH), or null when it cannot be run. */
export function harnessVersion(h: HarnessAdapter, bin = h.versions.bin): string | null {
  try {
    const out = execFileSync(bin, [...h.versions.args], { encoding: 'utf8', timeout: 15_000, stdio: ['ignore', 'pipe', 'ignore'] })
    return /(\d+\.\d+\.\d+)/.exec(out)?.[1] ?? null
  } catch {
    return null
  }
}

/** The same, without holding the event loop (the service lists every harness at once); `env` for the command. */
export function harnessVersionOf(h: HarnessAdapter, bin: string, env: NodeJS.ProcessEnv): Promise<string | null> {
  return new Promise((done) =>
    execFile(bin, [...h.versions.args], { env, timeout: 20_000, encoding: 'utf8' }, (err, out) =>
      done(err ? null : (/(\d+\.\d+\.\d+)/.exec(out)?.[1] ?? null))
    )
  )
}
