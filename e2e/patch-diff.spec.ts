/**
 * The Patches screen shows a patch through the diff view: file list, unified and split layouts
 * with a code column that gets the room (not squashed by other screens' styles), and the exact
 * bytes in a fold; syntax colours from the highlight worker. Screenshots light and dark.
 */
import { expect, test } from './fixtures'
import { settled } from './settle'

test('a demo patch in the diff view: files, unified and split, exact bytes in a fold', async ({ page, demo }) => {
  await page.goto(`${demo.openUrl}#/patches`)
  await page.getByTestId('patch-row').filter({ hasText: 'isValid() checks expiresAt' }).click()
  const content = page.getByTestId('patch-content')
  const view = content.getByTestId('diff-view')
  await expect(view).toBeVisible()
  await expect(view.getByText('1 file', { exact: true })).toBeVisible()
  await expect(view.locator('.dv-file-path')).toHaveText('src/health/certificate.ts')
  await expect(view.locator('.diff-code-insert').filter({ hasText: 'now < cert.expiresAt' }).first()).toBeVisible()
  // syntax colours arrive from the highlight worker (off the main thread), allowed by the page's CSP
  await expect(view.locator('.token.keyword').first()).toBeVisible()
  expect(page.workers().map((w) => w.url())).toContainEqual(expect.stringMatching(/highlight-worker/))

  // the code column takes most of the width in both layouts
  const codeShare = async () => {
    const box = await view.getByTestId('diff-scroll').boundingBox()
    const code = await view.locator('td.diff-code').first().boundingBox()
    return (code?.width ?? 0) / (box?.width ?? 1)
  }
  expect(await codeShare()).toBeGreaterThan(0.6)
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await settled(page)
    await page.getByTestId('patch-content').scrollIntoViewIfNeeded()
    await page.screenshot({ path: `e2e/artifacts/patches-diff-unified-${scheme}.png` })
  }
  await page.emulateMedia({ colorScheme: 'light' })

  await content.getByRole('radio', { name: 'Split' }).click()
  await expect(content.getByRole('radio', { name: 'Split' })).toBeChecked()
  await expect(view.locator('table.diff-split').first()).toBeVisible()
  expect(await codeShare()).toBeGreaterThan(0.3) // one side of two
  await page.screenshot({ path: 'e2e/artifacts/patches-diff-split-light.png' })

  // the exact bytes, folded until asked for
  const raw = content.getByTestId('patch-raw')
  await expect(raw).toBeHidden()
  await content.getByText('Exact bytes as stored').click()
  await expect(raw).toBeVisible()
  await expect(raw).toContainText('+  return cert.signature.length > 0 && now < cert.expiresAt')
})
