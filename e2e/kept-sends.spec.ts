/**
 * A send kept aside (issue 36, point 2): when other writers kept dropping an acknowledged send and
 * the guard could not apply it again, the version holding it stays beside the role file. The
 * operator sees it in the needs-you queue, opens the role file from there, reads the lines a merge
 * puts back and merges them with one click: the send is back, the agent's own lines stay, the copy
 * and the item are gone.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test, expect } from './fixtures'
import { seriousViolations } from './axe'

const NAME = '.qa.md.muster-lost-4242-0a1b2c3d'
const SEND = '📡 **S901→BUILD**: 🟡 **Re-run the flaky login suite before the tag**'

test('a kept send: needs-you item → role page → Merge back puts the send into the file, agent lines kept', async ({
  page,
  demo,
  workDir
}) => {
  const file = join(workDir, 'fleet', 'muse', '.muse', 'qa.md')
  const agent = readFileSync(file, 'utf8')
  // the version Muster had installed: the agent's file with the send; the agent has since rewritten it without
  const lines = agent.split('\n')
  const kept = [...lines.slice(0, 3), SEND, ...lines.slice(3)].join('\n')
  writeFileSync(join(workDir, 'fleet', 'muse', '.muse', NAME), kept)

  // the whole queue (the Overview lists the longest waits; this one has just arrived)
  await page.goto(`${demo.openUrl}#/needs`)
  const item = page.locator('[data-testid="need-item"][data-kind="kept"]')
  await expect(item).toHaveCount(1, { timeout: 30_000 })
  await expect(item).toContainText('A send to qa.md was overwritten and kept aside')
  await expect(item).toContainText('1 line to merge back')
  await item.click()

  const panel = page.getByTestId('kept-send')
  await expect(panel).toBeVisible({ timeout: 20_000 })
  await expect(panel.getByTestId('kept-lines')).toHaveText(SEND)
  expect(await seriousViolations(page, '[data-testid="kept-sends"]')).toEqual([])
  // to look at: the panel on a phone and a desktop, in both themes (no colour transition mid-shot)
  for (const [w, h] of [
    [390, 844],
    [1280, 800]
  ] as const)
    for (const scheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width: w, height: h })
      await page.emulateMedia({ colorScheme: scheme })
      await page.screenshot({ path: `e2e/artifacts/kept-sends/role-${w}-${scheme}.png`, animations: 'disabled' })
    }
  await page.getByTestId('kept-merge').click()
  await expect(page.getByTestId('kept-sends')).toHaveCount(0, { timeout: 20_000 })
  await expect(page.getByTestId('role-markdown')).toContainText('Re-run the flaky login suite before the tag')

  const merged = readFileSync(file, 'utf8')
  expect(merged).toBe(kept)
  expect(() => readFileSync(join(workDir, 'fleet', 'muse', '.muse', NAME))).toThrow()
  await page.goto(`${demo.openUrl}#/needs`)
  await expect(page.locator('[data-testid="need-item"]').first()).toBeVisible({ timeout: 30_000 })
  await expect(page.locator('[data-testid="need-item"][data-kind="kept"]')).toHaveCount(0)
})
