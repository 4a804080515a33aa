import { test, expect } from './fixtures'

test('settings: change a project key and mark the hub project', async ({ page, demo }) => {
  await page.goto(demo.openUrl)
  await page.getByTestId('nav-settings').click()
  await page.getByTestId('key-edit-atlas').click()
  await page.getByTestId('key-input-atlas').fill('ATLAS-X')
  await page.getByTestId('key-save-atlas').click()
  await expect(page.getByTestId('key-edit-atlas')).toContainText('ATLAS-X')
  const { projects } = demo.cli(['projects', 'list']) as { projects: { name: string; key: string }[] }
  expect(projects.find((p) => p.name === 'atlas')?.key).toBe('ATLAS-X')

  await page.getByTestId('key-edit-dya').click()
  await page.getByTestId('key-input-dya').fill('ATLAS-X')
  await page.getByTestId('key-save-dya').click()
  await expect(page.getByText(/already used by 'atlas'/)).toBeVisible()

  await expect(page.getByTestId('hub-mark-muse')).toHaveAttribute('aria-pressed', 'true')
  await page.getByTestId('hub-mark-dya').click()
  await expect(page.getByTestId('hub-mark-dya')).toHaveAttribute('aria-pressed', 'true')
  expect(demo.cli(['projects', 'hub'])).toEqual({ project: 'dya', source: 'operator' })
  await page.screenshot({ path: 'e2e/artifacts/settings-projects.png' })
})
