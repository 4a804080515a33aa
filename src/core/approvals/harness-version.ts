/**
 * The installed harness's version, read from its own command (`claude --version` prints
 * `2.1.332 (Claude Code)`, `codex --version` `codex-cli 0.171.0`): install writes what that release
 * honours (Claude Code's `onFailure`), and gate health says whether it fails closed.
 */
import { execFileSync } from 'node:child_process'
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
