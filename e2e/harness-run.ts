/**
 * The run scaffolding the real-harness e2e share (Claude Code, Codex, Gemini CLI, Copilot CLI, OpenCode; each installed by
 * `.ci/run` in a test-only `.cache/<name>/`): where a harness CLI lives, `muster <hook> install`
 * through the built CLI against the demo fleet's hub, one harness process with its output kept,
 * opening the request it raised in the dashboard, and the hub's approval history.
 */
import { execFileSync, spawn } from 'node:child_process'
import { join, resolve } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, isolatedEnv, type Served } from './fixtures'

const ROOT = resolve(import.meta.dirname, '..')
const BIN = join(ROOT, 'bin', 'muster.cjs')

/** A harness run against a scripted model: the marker file its command creates, the stand-in, the harness. */
export interface MarkerRun<S, H> {
  marker: string
  standIn: S
  harness: H
}

/**
 * A runner of one harness against a scripted model, for the real-harness specs: `(served, workDir,
 * name, body)` starts the stand-in, whose model runs `touch <project>/<name>-marker.txt`, and the
 * harness against it; `body` gets the three, and afterwards, whatever happened, the harness is
 * killed and the stand-in closed.
 */
export function markerRunner<S extends { close(): Promise<void> }, H extends { kill(): void }>(
  project: string,
  startStandIn: (command: string) => Promise<S>,
  startHarness: (served: Served, workDir: string, standIn: S) => H
) {
  return async (served: Served, workDir: string, name: string, body: (run: MarkerRun<S, H>) => Promise<void>): Promise<void> => {
    const marker = join(workDir, project, `${name}-marker.txt`)
    const standIn = await startStandIn(`touch ${marker}`)
    const harness = startHarness(served, workDir, standIn)
    try {
      await body({ marker, standIn, harness })
    } finally {
      harness.kill()
      await standIn.close()
    }
  }
}

/** A harness CLI's path inside the test-only `.cache/` folder `.ci/run` fills. */
export function harnessCli(...parts: string[]): string {
  return join(ROOT, '.cache', ...parts)
}

/** The demo fleet's hub (`muster demo` lays the fleet out beside the home). */
export function fleetPalace(served: Served): string {
  return join(served.home, '..', 'fleet', 'hub')
}

/**
 * Runs `muster <args> --home H --palace P` (the built CLI, as a harness would) for the served
 * home and the demo fleet's hub; `env` adds to the test's isolated environment.
 */
export function musterInstall(served: Served, args: string[], env: NodeJS.ProcessEnv = {}): void {
  execFileSync(process.execPath, [BIN, ...args, '--home', served.home, '--palace', fleetPalace(served)], {
    env: { ...isolatedEnv(served.home), ...env }
  })
}

/** A running harness process and everything it printed. */
export interface HarnessRun {
  /** Resolves when the process closes. */
  done: Promise<{ code: number | null; stdout: string; stderr: string; out: string }>
  /** The output so far (stdout then stderr as they came). */
  output(): string
  /** Writes to its stdin. */
  write(text: string): void
  /** Ends its stdin. */
  end(): void
  kill(): void
}

/** Starts a harness CLI with only `env` (no variable of the test runner leaks in but PATH). */
export function startHarness(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, keepStdin = false): HarnessRun {
  const proc = spawn(command, args, { cwd, env: { PATH: process.env.PATH, ...env } })
  if (!keepStdin) proc.stdin.end()
  let stdout = ''
  let stderr = ''
  let out = ''
  proc.stdout.on('data', (d: Buffer) => ((stdout += d), (out += d)))
  proc.stderr.on('data', (d: Buffer) => ((stderr += d), (out += d)))
  return {
    done: new Promise((r) => proc.on('close', (code) => r({ code, stdout, stderr, out }))),
    output: () => out,
    write: (text) => void proc.stdin.write(text),
    end: () => proc.stdin.end(),
    kill: () => void proc.kill('SIGKILL')
  }
}

/**
 * Opens the Approvals screen and the request whose row shows `rowText`; checks its tool preview
 * shows `touch <marker>` and its detail `detail` (the harness or the agent).
 */
export async function openRequest(page: Page, served: Served, rowText: string, marker: string, detail: string): Promise<void> {
  await page.goto(served.openUrl)
  await page.getByTestId('nav-approvals').click()
  const row = page.locator('[data-testid^="approval-row-"]', { hasText: rowText })
  await expect(row).toBeVisible({ timeout: 90_000 })
  await row.click()
  await expect(page.getByTestId('tool-preview')).toContainText(`touch ${marker}`)
  await expect(page.getByTestId('approval-detail')).toContainText(detail)
}

/** One decided request in `muster approvals list --history`. */
export interface Decided {
  agent: string
  harness: string
  state: string
  decision: { reason: string } | null
}

/** The hub's decided requests of `agent`, newest first (`muster approvals list --history 50`). */
export function historyOf(served: Served, agent: string): Decided[] {
  return (served.cli(['approvals', 'list', '--history', '50']) as { history: Decided[] }).history.filter((h) => h.agent === agent)
}

/** The Claude Code CLI `.ci/run` installs (its native binary). */
export const CLAUDE = harnessCli('claude-code', 'node_modules', '@anthropic-ai', 'claude-code', 'bin', 'claude.exe')

/** Claude Code's environment: a home of its own, the Messages API stand-in at `apiUrl`, no traffic elsewhere. */
export function claudeEnv(home: string, apiUrl: string): NodeJS.ProcessEnv {
  return {
    HOME: home,
    ANTHROPIC_BASE_URL: apiUrl,
    ANTHROPIC_API_KEY: 'sk-ant-test-muster',
    DISABLE_TELEMETRY: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1'
  }
}
