import { test, expect } from './fixtures'

const SCREENS = ['overview', 'directives', 'timeline', 'patches', 'approvals', 'notes', 'settings'] as const

for (const scheme of ['light', 'dark'] as const) {
  test(`every screen renders (${scheme}) and is saved as a screenshot`, async ({ page, shownDemo: demo }) => {
    await page.emulateMedia({ colorScheme: scheme })
    await page.goto(demo.openUrl)
    await expect(page.getByTestId('project-card-muse')).toBeVisible()
    for (const id of SCREENS) {
      await page.getByTestId(`nav-${id}`).click()
      await expect(page.getByTestId(`screen-${id}`)).toBeVisible()
      // the shot shows the screen's content, not its loading state
      await expect(page.locator(`[data-testid="screen-${id}"] .state-loading`)).toHaveCount(0)
      await page.screenshot({ path: `e2e/artifacts/${id}-${scheme}.png` })
    }
  })
}

test('keyboard: the command palette navigates between screens', async ({ page, shownDemo: demo }) => {
  await page.goto(demo.openUrl)
  await expect(page.getByTestId('project-card-muse')).toBeVisible()
  await page.keyboard.press('Control+k')
  const palette = page.getByTestId('command-palette')
  await expect(palette).toBeVisible()
  await page.screenshot({ path: 'e2e/artifacts/command-palette.png' })
  await page.keyboard.type('settings')
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('screen-settings')).toBeVisible()
  await expect(palette).toHaveCount(0)
  expect(page.url()).toContain('#/settings')
})
