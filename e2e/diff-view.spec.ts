/**
 * The diff view on its own page: Muster's DiffView bundled with the app's theme tokens (the
 * bench's page), mounted with the generated 5,000-line patch. Not served by `muster serve` yet:
 * the Patches screen (issue 9) embeds the same component.
 */
import { test, expect } from '@playwright/test'
import { join } from 'node:path'
import { bundlePage, dropPage, type BenchPage } from '../bench/diff-view/measure'
import { generatePatch } from '../bench/diff-view/patch-gen'

let bench: BenchPage
test.beforeAll(async () => {
  bench = await bundlePage(join(import.meta.dirname, '..', 'bench', 'diff-view', 'muster-page.tsx'))
})
test.afterAll(() => dropPage(bench))

for (const theme of ['light', 'dark'] as const) {
  test(`diff view shows CRLF, no final newline, binary and large files (${theme})`, async ({ page }) => {
    test.setTimeout(300_000) // 5,000 lines drawn a chunk per frame, then 1,800 more: minutes on a busy 2-core machine
    await page.goto(`${bench.url}?theme=${theme}`)
    await page.waitForFunction("'mountDiff' in window")
    await page.evaluate((p) => (window as unknown as { mountDiff: (p: string) => void }).mountDiff(p), generatePatch())
    const view = page.getByTestId('diff-view')
    await expect(page.getByRole('navigation', { name: 'Patch: files' }).getByRole('link')).toHaveCount(7)
    // large files are collapsed behind "Load anyway"
    const engine = page.locator('#file-0')
    await expect(engine.getByText('Large file: 2400 lines collapsed.')).toBeVisible()
    // CR bytes are visible as ↵ markers, and the file is flagged
    const cs = page.locator('#file-2')
    await expect(cs.getByText('CRLF ×400')).toBeVisible()
    await expect(cs.locator('.diff-code').first()).toContainText('↵')
    await expect(cs.locator('.token.keyword').first()).toBeVisible() // syntax colouring arrives
    await page.screenshot({ path: `e2e/artifacts/diff-view-${theme}.png` })
    // jump to a file from the list: the binary file is described, the VERSION file flagged
    await page.getByRole('link', { name: /logo\.png/ }).click()
    await expect(page.locator('#file-6').getByText('Binary file changed')).toBeInViewport()
    await expect(page.locator('#file-5').getByText('\\ No newline at end of file (new)')).toBeVisible()
    // the layout toggle works from the keyboard
    await page.getByRole('radio', { name: 'Unified' }).focus()
    await page.keyboard.press('ArrowRight')
    await expect(page.getByRole('radio', { name: 'Split' })).toBeChecked()
    await expect(cs.locator('.diff-split').first()).toBeVisible()
    // load anyway renders the large file
    await engine.getByRole('button', { name: 'Load anyway' }).click()
    await expect(engine.locator('.diff-line').nth(1500)).toBeAttached({ timeout: 180_000 }) // split: 1,800 rows, a chunk per frame
    await page.locator('#file-2').scrollIntoViewIfNeeded()
    await page.screenshot({ path: `e2e/artifacts/diff-view-split-${theme}.png` })
    await expect(view).toBeVisible()
  })
}
