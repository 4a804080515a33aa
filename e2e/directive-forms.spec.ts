/**
 * The forms real role files use (docs/muse-directive-forms.md) and Unicode role names in the UI:
 * a project whose received directives are table rows and `## 📡 S109 — …` headings, with a role
 * named 产品 (test/fixtures/forms/relay). Its rows show their states; a 🟡 row is picked up from
 * the UI where it stands; the role viewer opens 产品.md.
 */
import { cpSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test, expect } from './fixtures'

const RELAY = join(import.meta.dirname, '..', 'test', 'fixtures', 'forms', 'relay')

test('table-row and heading directives show their states; a 🟡 row of 产品 is picked up in place', async ({ page, served, workDir }) => {
  const dir = join(workDir, 'relay')
  cpSync(RELAY, dir, { recursive: true })
  served.cli(['projects', 'add', dir])

  await page.goto(served.openUrl)
  await page.getByTestId('nav-directives').click()
  await expect(page.getByTestId('screen-directives')).toBeVisible()
  const row = (id: string, target: string) => page.getByTestId(`directive-row-relay-${id}-${target.replace(/\//g, '_')}`)
  await expect(row('S177', 'RELAY/BUILD')).toHaveAttribute('data-state', 'pending')
  await expect(row('S090', 'RELAY/BUILD')).toHaveAttribute('data-state', 'received')
  await expect(row('S109', 'RELAY/BUILD')).toHaveAttribute('data-state', 'pending')
  await expect(row('S114', 'RELAY/BUILD')).toHaveAttribute('data-state', 'untracked')

  const s120 = row('S120', 'RELAY/产品')
  await expect(s120).toHaveAttribute('data-state', 'pending')
  await s120.click()
  await expect(page.getByTestId('pickup-button')).toBeEnabled()
  await page.getByTestId('pickup-button').click()
  await page.getByTestId('pickup-confirm').click()
  await expect(page.getByTestId('pickup-result')).toHaveAttribute('data-outcome', 'picked-up')
  await expect(s120).toHaveAttribute('data-state', 'received')
  expect(readFileSync(join(dir, '.muse', '产品.md'), 'utf8')).toMatch(/\| S120 产品定价页 \| ✅ 已接收 [\d-]+ [\d:]+ — 待执行 \|\n$/)

  await page.goto(`${served.openUrl.replace(/#.*$/, '')}#/role/relay/${encodeURIComponent('产品')}`)
  await expect(page.getByTestId('role-viewer')).toContainText('产品路线')
})
