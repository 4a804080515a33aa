/**
 * A newcomer's first approved call through the Connect screen, with the real Claude Code CLI
 * (`.cache/claude-code`, filled by `.ci/run`) on the served Muster's PATH and its Messages API
 * stand-in: a fresh home, the Overview's first run, Connect agents (no hub yet: it says so), the
 * demo fleet for a hub, Claude Code found with its version, its gate installed with one click and
 * healthy, a test request approved in the inbox, then the real `claude -p` asking to run a Bash
 * command that runs once the operator approves it. Each step is saved at 390 and 1280 px in
 * e2e/artifacts/connect-*.png; axe checks the Connect screen in both themes. With no harness on
 * PATH, the screen says so in one line with what to do.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { startAnthropicStandIn } from './anthropic-stand-in'
import { seriousViolations } from './axe'
import { expect, startServe, stopServe, test } from './fixtures'
import { CLAUDE, claudeEnv, startHarness } from './harness-run'

/** Saves the page at a phone's and a laptop's width (`e2e/artifacts/connect-<step>-<width>.png`), ending at 1280 px. */
async function shoot(page: Page, step: string): Promise<void> {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 })
    // no page scrolls sideways at either width
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
    await page.screenshot({ path: `e2e/artifacts/connect-${step}-${width}.png`, fullPage: true })
  }
}

test('newcomer: Connect screen, one-click Claude Code gate, a test request, then the real claude -p approved in the inbox', async ({
  page,
  workDir
}) => {
  test.skip(!existsSync(CLAUDE), 'Claude Code CLI absent (.cache/claude-code: filled by .ci/run): skipping the Connect newcomer e2e')
  test.setTimeout(300_000)
  const home = join(workDir, 'home')
  const bin = join(workDir, 'bin')
  const userHome = join(workDir, 'user-home')
  const project = join(workDir, 'project')
  for (const d of [home, bin, project]) mkdirSync(d, { recursive: true })
  // Claude Code as `claude` on the PATH Muster looks through (the test-only install names it claude.exe)
  symlinkSync(CLAUDE, join(bin, 'claude'))
  const { proc, openUrl } = await startServe(home, { PATH: `${bin}:${process.env.PATH ?? ''}` })
  const marker = join(workDir, 'connect-marker.txt')
  const standIn = await startAnthropicStandIn(`touch ${marker}`)
  try {
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto(`${openUrl}#/overview`)
    await expect(page.getByTestId('demo-offer')).toBeVisible()
    await expect(page.getByTestId('first-run-connect')).toBeVisible()
    await shoot(page, '1-first-run')

    // Connect agents before any hub: Claude Code is found, and the screen says a hub comes first
    await page.getByTestId('first-run-connect').click()
    await expect(page.getByTestId('screen-connect')).toBeVisible()
    const card = page.getByTestId('connect-claude')
    await expect(card.getByTestId('connect-found')).toContainText(/found · \d+\.\d+\.\d+/, { timeout: 60_000 })
    await expect(page.getByTestId('connect-hub')).toContainText('No hub yet')
    await expect(card.getByTestId('connect-gate')).toHaveText('not installed')
    await shoot(page, '2-no-hub')

    // the demo fleet gives the gates a hub; back to Connect from the Overview
    await page.getByTestId('nav-overview').click()
    await page.getByTestId('create-demo').click()
    await expect(page.getByTestId('project-card-muse')).toBeVisible({ timeout: 90_000 })
    await page.getByTestId('overview-connect').click()
    await expect(page.getByTestId('connect-hub')).toContainText('Gates ask you through the hub')

    // one click: the gate and the session hooks, checked at once
    await card.getByTestId('connect-install-claude').click()
    await expect(card.getByTestId('connect-installed')).toBeVisible({ timeout: 90_000 })
    await expect(card.getByTestId('connect-gate')).toContainText('installed: PermissionRequest')
    await expect(card.getByTestId('connect-session')).toHaveText('installed')
    await expect(card.getByTestId('connect-health')).toHaveAttribute('data-ok', 'true', { timeout: 90_000 })
    const settings = readFileSync(join(userHome, '.claude', 'settings.json'), 'utf8')
    expect(settings).toContain('approve-hook')
    expect(settings).toContain('"onFailure": "block"')
    await shoot(page, '3-installed')
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      expect(await seriousViolations(page, '[data-testid="screen-connect"]'), scheme).toEqual([])
    }
    await page.emulateMedia({ colorScheme: 'light' })

    // a test request, answered on the spot in the inbox
    await card.getByTestId('connect-test-claude').click()
    await expect(card.getByTestId('connect-test-sent')).toBeVisible()
    await shoot(page, '4-test-sent')
    await card.getByTestId('connect-open-inbox').click()
    const testRow = page.locator('[data-testid^="approval-row-"]', { hasText: 'Muster connect test' })
    await expect(testRow).toBeVisible()
    await testRow.click()
    await expect(page.getByTestId('test-request-note')).toBeVisible()
    // no hook waits for a test request: the pane says what happens if nobody answers, not "Hook gives up"
    await expect(page.getByTestId('approval-gives-up')).toContainText(/leaves the inbox in \d+ min .*nothing runs/)
    await expect(page.getByTestId('approval-detail')).not.toContainText('Hook gives up')
    await expect(page.getByTestId('approve-always')).toHaveCount(0)
    await shoot(page, '5-test-in-inbox')
    await page.getByTestId('approve').click()
    await expect(testRow).toHaveCount(0)

    // the real agent: its Bash call waits in the inbox, the operator approves it, it runs
    const claude = startHarness(
      CLAUDE,
      ['-p', 'Create the marker file.', '--output-format', 'json'],
      project,
      claudeEnv(userHome, standIn.url)
    )
    const row = page.locator('[data-testid^="approval-row-"]', { hasText: marker })
    await expect(row).toBeVisible({ timeout: 90_000 })
    await row.click()
    await expect(page.getByTestId('tool-preview')).toContainText(`touch ${marker}`)
    await shoot(page, '6-agent-call')
    await page.getByTestId('approve').click()
    const out = await claude.done
    expect(out.code, out.stderr).toBe(0)
    expect(existsSync(marker)).toBe(true)
    expect(JSON.parse(out.stdout)).toMatchObject({ type: 'result', is_error: false })
    await shoot(page, '7-approved')
  } finally {
    await standIn.close()
    await stopServe(proc)
  }
})

test('no harness on PATH: the Connect screen says so in one line, with what to do', async ({ page, workDir }) => {
  const home = join(workDir, 'home')
  const bin = join(workDir, 'empty-bin')
  for (const d of [home, bin]) mkdirSync(d, { recursive: true })
  // a PATH with none of claude, codex, gemini, copilot, opencode, cursor-agent
  const { proc, openUrl } = await startServe(home, { PATH: bin })
  try {
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto(`${openUrl}#/connect`)
    const none = page.getByTestId('connect-none-found')
    await expect(none).toBeVisible({ timeout: 60_000 })
    await expect(none).toContainText('No agent harness found on this machine')
    await expect(none).toContainText('npm install -g @anthropic-ai/claude-code')
    for (const b of ['claude', 'codex', 'gemini', 'copilot', 'opencode', 'cursor-agent']) await expect(none).toContainText(b)
    await shoot(page, '0-none-found')
  } finally {
    await stopServe(proc)
  }
})
