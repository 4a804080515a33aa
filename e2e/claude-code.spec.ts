/**
 * The real Claude Code CLI (npm `@anthropic-ai/claude-code` 2.1.x, installed by `.ci/run` in the
 * test-only folder `.cache/claude-code/`, outside the app's dependencies) against a scripted
 * stand-in for the Anthropic Messages API, with `muster approve-hook` installed by the default
 * `muster approve-hook install` (PermissionRequest, `onFailure: "block"` since the installed
 * Claude Code honours it). The scripted model asks to run one Bash command that creates a marker
 * file; the operator decides in the dashboard, or Claude Code's own rules decide first.
 */
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { Page } from '@playwright/test'
import { startAnthropicStandIn, type AnthropicStandIn } from './anthropic-stand-in'
import { test, expect, type Served } from './fixtures'

const ROOT = resolve(import.meta.dirname, '..')
const BIN = join(ROOT, 'bin', 'muster.cjs')
const CLAUDE = join(ROOT, '.cache', 'claude-code', 'node_modules', '@anthropic-ai', 'claude-code', 'bin', 'claude.exe')

test.skip(!existsSync(CLAUDE), 'Claude Code CLI absent (.cache/claude-code: filled by .ci/run): skipping the real-harness e2e')

interface ClaudeRun {
  done: Promise<{ code: number | null; stdout: string; stderr: string }>
}

/** The parts of a Claude settings file these tests read or change. */
interface ClaudeSettings {
  permissions?: { allow?: string[] }
  hooks: Record<string, { hooks: { type: string; command: string; onFailure?: string }[] }[]>
}

/**
 * Installs Muster's hook into a fresh Claude settings file (the installer asks this Claude Code
 * its version), lets `edit` change that file, and starts `claude -p` in a temporary HOME.
 */
function runClaude(
  served: Served,
  workDir: string,
  standIn: AnthropicStandIn,
  prompt: string,
  edit?: (settings: ClaudeSettings) => void
): ClaudeRun {
  const home = join(workDir, 'claude-home')
  const project = join(workDir, 'project')
  mkdirSync(home, { recursive: true })
  mkdirSync(project, { recursive: true })
  const settings = join(home, 'settings.json')
  const palace = join(served.home, '..', 'fleet', 'hub')
  execFileSync(
    process.execPath,
    [
      BIN,
      'approve-hook',
      'install',
      '--agent',
      'e2e-claude',
      '--settings',
      settings,
      '--home',
      served.home,
      '--palace',
      palace,
      '--project',
      'muse',
      '--claude',
      CLAUDE
    ],
    {
      env: { ...process.env, MUSTER_HOME: '', HOME: home }
    }
  )
  if (edit) {
    const parsed = JSON.parse(readFileSync(settings, 'utf8')) as ClaudeSettings
    edit(parsed)
    writeFileSync(settings, JSON.stringify(parsed, null, 2))
  }
  const proc = spawn(CLAUDE, ['-p', prompt, '--output-format', 'json', '--settings', settings], {
    cwd: project,
    env: {
      PATH: process.env.PATH,
      HOME: home,
      ANTHROPIC_BASE_URL: standIn.url,
      ANTHROPIC_API_KEY: 'sk-ant-test-muster',
      DISABLE_TELEMETRY: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1'
    }
  })
  let stdout = ''
  let stderr = ''
  proc.stdout.on('data', (d: Buffer) => (stdout += d))
  proc.stderr.on('data', (d: Buffer) => (stderr += d))
  return { done: new Promise((res) => proc.on('close', (code) => res({ code, stdout, stderr }))) }
}

async function openRequest(page: Page, served: Served, marker: string): Promise<void> {
  await page.goto(served.openUrl)
  await page.getByTestId('nav-approvals').click()
  const row = page.locator('[data-testid^="approval-row-"]', { hasText: marker })
  await expect(row).toBeVisible({ timeout: 60_000 })
  await row.click()
  await expect(page.getByTestId('tool-preview')).toContainText(`touch ${marker}`)
  await expect(page.getByTestId('approval-detail')).toContainText('e2e-claude')
}

test('Claude Code: approved in the dashboard, the Bash command runs', async ({ page, demo, workDir }) => {
  test.setTimeout(180_000)
  const marker = join(workDir, 'approved-marker.txt')
  const standIn = await startAnthropicStandIn(`touch ${marker}`)
  try {
    const claude = runClaude(demo, workDir, standIn, 'Create the marker file.')
    await openRequest(page, demo, marker)
    await page.getByTestId('approve').click()
    const out = await claude.done
    expect(out.code, out.stderr).toBe(0)
    expect(existsSync(marker)).toBe(true)
    expect(JSON.parse(out.stdout)).toMatchObject({ type: 'result', is_error: false, result: 'Done.' })
    expect(standIn.toolResults).toEqual([expect.objectContaining({ tool_use_id: 'toolu_muster_e2e', is_error: false })])
  } finally {
    await standIn.close()
  }
})

test('Claude Code: denied in the dashboard, the command does not run and the reason reaches the model', async ({ page, demo, workDir }) => {
  test.setTimeout(180_000)
  const marker = join(workDir, 'denied-marker.txt')
  const standIn = await startAnthropicStandIn(`touch ${marker}`)
  try {
    const claude = runClaude(demo, workDir, standIn, 'Create the marker file.')
    await openRequest(page, demo, marker)
    await page.getByTestId('approval-reason').fill('not in this folder, use the fixtures dir')
    await page.getByTestId('deny').click()
    const out = await claude.done
    expect(out.code, out.stderr).toBe(0)
    expect(existsSync(marker)).toBe(false)
    expect(standIn.toolResults).toEqual([
      { tool_use_id: 'toolu_muster_e2e', is_error: true, content: expect.stringContaining('not in this folder, use the fixtures dir') }
    ])
    const result = JSON.parse(out.stdout) as { result: string; permission_denials?: unknown[] }
    expect(result.result).toBe('The command was not run.')
    // the hub holds the request and the operator's decision
    const list = demo.cli(['approvals', 'list', '--history', '20']) as {
      history: { agent: string; state: string; decision: { reason: string } }[]
    }
    expect(list.history.find((h) => h.agent === 'e2e-claude')).toMatchObject({
      state: 'deny',
      decision: { reason: 'not in this folder, use the fixtures dir' }
    })
    expect(readFileSync(join(workDir, 'claude-home', 'settings.json'), 'utf8')).toContain('approve-hook --agent e2e-claude')
  } finally {
    await standIn.close()
  }
})

test('Claude Code: a call an allow rule passes runs and never reaches the inbox', async ({ page, demo, workDir }) => {
  test.setTimeout(180_000)
  // inside the session's working directory: Claude Code asks for a path outside it even when an
  // allow rule names the command
  mkdirSync(join(workDir, 'project'), { recursive: true })
  const marker = join(workDir, 'project', 'allowed-marker.txt')
  const standIn = await startAnthropicStandIn(`touch ${marker}`)
  try {
    // the operator's own Claude Code allow rule for exactly this command, beside Muster's hook
    const claude = runClaude(demo, workDir, standIn, 'Create the marker file.', (s) => {
      expect(Object.keys(s.hooks)).toEqual(['PermissionRequest'])
      s.permissions = { allow: [`Bash(touch ${marker})`] }
    })
    const out = await claude.done
    expect(out.code, out.stderr).toBe(0)
    expect(existsSync(marker)).toBe(true)
    expect(standIn.toolResults).toEqual([expect.objectContaining({ tool_use_id: 'toolu_muster_e2e', is_error: false })])
    // Claude Code decided on its own: the hub holds no request from this agent, pending or decided
    const list = demo.cli(['approvals', 'list', '--history', '50']) as {
      pending: { agent: string }[]
      history: { agent: string }[]
    }
    expect([...list.pending, ...list.history].filter((r) => r.agent === 'e2e-claude')).toEqual([])
    await page.goto(demo.openUrl)
    await page.getByTestId('nav-approvals').click()
    await expect(page.locator('[data-testid^="approval-row-"]', { hasText: marker })).toHaveCount(0)
  } finally {
    await standIn.close()
  }
})

test('Claude Code: a hook that crashes blocks the call (onFailure "block", Claude Code >= 2.1.295)', async ({ demo, workDir }) => {
  test.setTimeout(180_000)
  const marker = join(workDir, 'crashed-marker.txt')
  const standIn = await startAnthropicStandIn(`touch ${marker}`)
  try {
    // Muster's installed entry, its command swapped for one that exits 1; onFailure kept as written
    const claude = runClaude(demo, workDir, standIn, 'Create the marker file.', (s) => {
      const entry = s.hooks.PermissionRequest?.[0]?.hooks[0]
      expect(entry).toMatchObject({ type: 'command', onFailure: 'block' })
      expect(entry?.command).toContain('approve-hook --agent e2e-claude')
      if (entry) entry.command = 'exit 1'
    })
    const out = await claude.done
    expect(out.code, out.stderr).toBe(0)
    expect(existsSync(marker)).toBe(false)
    // blocked by the failed hook itself, not by -p's own "needs approval" refusal
    expect(standIn.toolResults).toEqual([
      { tool_use_id: 'toolu_muster_e2e', is_error: true, content: expect.stringContaining('blocking because onFailure is "block"') }
    ])
  } finally {
    await standIn.close()
  }
})
