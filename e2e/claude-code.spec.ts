/**
 * The real Claude Code CLI (npm `@anthropic-ai/claude-code` 2.1.x, installed by `.ci/run` in the
 * test-only folder `.cache/claude-code/`, outside the app's dependencies) against a scripted
 * stand-in for the Anthropic Messages API, with `muster approve-hook` installed by the default
 * `muster approve-hook install` (PermissionRequest, `onFailure: "block"` since the installed
 * Claude Code honours it). The scripted model asks to run one Bash command that creates a marker
 * file; the operator decides in the dashboard, or Claude Code's own rules decide first.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { startAnthropicStandIn, type AnthropicStandIn } from './anthropic-stand-in'
import { test, expect, type Served } from './fixtures'
import { CLAUDE, claudeEnv, historyOf, musterInstall, openRequest, startHarness, type HarnessRun } from './harness-run'

test.skip(!existsSync(CLAUDE), 'Claude Code CLI absent (.cache/claude-code: filled by .ci/run): skipping the real-harness e2e')

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
  edit?: (settings: ClaudeSettings) => void,
  sessions = false
): HarnessRun {
  const home = join(workDir, 'claude-home')
  const project = join(workDir, 'project')
  mkdirSync(home, { recursive: true })
  mkdirSync(project, { recursive: true })
  const settings = join(home, 'settings.json')
  musterInstall(
    served,
    ['approve-hook', 'install', '--agent', 'e2e-claude', '--settings', settings, '--project', 'muse', '--claude', CLAUDE],
    {
      HOME: home
    }
  )
  // the lifecycle hooks too (`muster session-hook install`), into the same settings file
  if (sessions) musterInstall(served, ['session-hook', 'install', '--agent', 'e2e-claude', '--settings', settings], { HOME: home })
  if (edit) {
    const parsed = JSON.parse(readFileSync(settings, 'utf8')) as ClaudeSettings
    edit(parsed)
    writeFileSync(settings, JSON.stringify(parsed, null, 2))
  }
  return startHarness(
    CLAUDE,
    ['-p', 'Create the marker file.', '--output-format', 'json', '--settings', settings],
    project,
    claudeEnv(home, standIn.url)
  )
}

test('Claude Code: approved in the dashboard, the Bash command runs', async ({ page, demo, workDir }) => {
  test.setTimeout(180_000)
  const marker = join(workDir, 'approved-marker.txt')
  const standIn = await startAnthropicStandIn(`touch ${marker}`)
  try {
    const claude = runClaude(demo, workDir, standIn)
    await openRequest(page, demo, marker, marker, 'e2e-claude')
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

test('Claude Code session: waiting for your approval on the Overview while its call is in the inbox', async ({ page, demo, workDir }) => {
  test.setTimeout(180_000)
  const marker = join(workDir, 'session-marker.txt')
  const standIn = await startAnthropicStandIn(`touch ${marker}`)
  try {
    const claude = runClaude(demo, workDir, standIn, undefined, true)
    await openRequest(page, demo, marker, marker, 'e2e-claude')
    await page.getByTestId('nav-overview').click()
    const row = page.getByTestId('session-row').filter({ hasText: 'e2e-claude' })
    await expect(row).toHaveAttribute('data-state', 'approval', { timeout: 30_000 })
    await expect(row).toContainText('waiting for your approval')
    await expect(page.getByTestId('sessions-summary')).toContainText('1 waiting for your approval')
    await openRequest(page, demo, marker, marker, 'e2e-claude')
    await page.getByTestId('approve').click()
    const out = await claude.done
    expect(out.code, out.stderr).toBe(0)
    expect(existsSync(marker)).toBe(true)
    // decided and the run over: the session is no longer shown as waiting for you
    await page.getByTestId('nav-overview').click()
    await expect(row).not.toHaveAttribute('data-state', 'approval', { timeout: 30_000 })
  } finally {
    await standIn.close()
  }
})

test('Claude Code: denied in the dashboard, the command does not run and the reason reaches the model', async ({ page, demo, workDir }) => {
  test.setTimeout(180_000)
  const marker = join(workDir, 'denied-marker.txt')
  const standIn = await startAnthropicStandIn(`touch ${marker}`)
  try {
    const claude = runClaude(demo, workDir, standIn)
    await openRequest(page, demo, marker, marker, 'e2e-claude')
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
    expect(historyOf(demo, 'e2e-claude')[0]).toMatchObject({
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
    const claude = runClaude(demo, workDir, standIn, (s) => {
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
    const claude = runClaude(demo, workDir, standIn, (s) => {
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
