/**
 * The installed Claude Code's version, read from `claude --version` (e.g. `2.1.332 (Claude Code)`):
 * the installer writes `onFailure: "block"` only where Claude Code honours it.
 */
import { execFileSync } from 'node:child_process'

/** `x.y.z` of the Claude Code at `bin`, or null when it cannot be run. */
export function claudeVersion(bin: string): string | null {
  try {
    const out = execFileSync(bin, ['--version'], { encoding: 'utf8', timeout: 15_000, stdio: ['ignore', 'pipe', 'ignore'] })
    return /(\d+\.\d+\.\d+)/.exec(out)?.[1] ?? null
  } catch {
    return null
  }
}
