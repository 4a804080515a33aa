/**
 * The Overview's "Agent gates" panel: a Codex gate installed the default way is not trusted by
 * Codex yet (the state after every install that changes its command line), so it would not stop
 * `codex exec`'s calls: the panel shows it broken with the fix, the needs-you queue holds it and
 * links to the panel. Screenshots at 390 and 1280 px in both themes (e2e/artifacts/gates/), axe
 * clean on the panel.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { call } from './api'
import { seriousViolations } from './axe'
import { test, expect } from './fixtures'
import { musterInstall } from './harness-run'

test('Agent gates: an untrusted Codex gate would not stop calls; its fix is shown and the needs-you item links here', async ({
  page,
  request,
  demo,
  workDir
}) => {
  test.setTimeout(180_000)
  const codexHome = join(workDir, 'codex-home')
  mkdirSync(codexHome, { recursive: true })
  const hooks = join(codexHome, 'hooks.json')
  musterInstall(demo, ['approve-hook', 'install', '--harness', 'codex', '--mode', 'exec', '--agent', 'e2e-codex', '--settings', hooks], {
    CODEX_HOME: codexHome
  })
  // the server checks at start and every few minutes; the operator's "check now", through the API
  await call(request, demo, 'gates.check', {})
  await page.goto(demo.openUrl)
  const panel = page.getByTestId('gates-panel')
  const row = panel.getByTestId('gate-row').filter({ hasText: 'Codex' })
  await expect(row).toHaveAttribute('data-ok', 'false', { timeout: 60_000 })
  await expect(row).toContainText('would not stop calls')
  await expect(row).toContainText('PreToolUse')
  await expect(row.getByTestId('gate-problem')).toContainText(/trust/i)
  await expect(row.getByTestId('gate-problem')).toContainText('Fix:')
  await expect(panel.getByTestId('gates-summary')).toContainText('1 would not stop calls')
  expect(await seriousViolations(page, '[data-testid="gates-panel"]')).toEqual([])

  // "check now" runs again and keeps the panel
  await panel.getByTestId('gates-check').click()
  await expect(row).toHaveAttribute('data-ok', 'false')

  for (const scheme of ['light', 'dark'] as const)
    for (const [name, width] of [
      ['phone', 390],
      ['laptop', 1280]
    ] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      await page.setViewportSize({ width, height: 900 })
      await panel.scrollIntoViewIfNeeded()
      await panel.screenshot({ path: `e2e/artifacts/gates/gates-${name}-${scheme}.png` })
    }

  // the needs-you item of the broken gate opens the Overview on this panel
  await page.setViewportSize({ width: 1280, height: 900 })
  await page.goto(demo.openUrl.replace(/#.*$/, '') + '#/needs')
  const item = page.locator('[data-testid="need-item"][data-kind="gate"]').filter({ hasText: 'Codex gate' })
  await expect(item).toBeVisible({ timeout: 30_000 })
  await item.click()
  await expect(page).toHaveURL(/#\/overview\?panel=gates/)
  await expect(page.getByTestId('gates-panel')).toBeInViewport()
})
