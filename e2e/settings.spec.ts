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

test('settings: add a hub by its palace folder (created on request) and remove it', async ({ page, served, workDir }) => {
  await page.goto(served.openUrl)
  await page.getByTestId('nav-settings').click()
  const palace = `${workDir}/palace-two`
  await page.getByTestId('add-hub-palace').fill(palace)
  await page.getByTestId('add-hub-name').fill('two')
  await page.getByTestId('add-hub-submit').click()
  await expect(page.getByTestId('add-hub')).toContainText(/no hub at/)
  await page.getByTestId('add-hub-create').check()
  await page.getByTestId('add-hub-submit').click()
  await expect(page.getByTestId('hub-item-two')).toBeVisible()
  expect((served.cli(['hubs', 'list']) as { hubs: { name: string; palace: string }[] }).hubs).toEqual([
    expect.objectContaining({ name: 'two', palace })
  ])
  await page.getByTestId('remove-hub-two').click()
  await page.getByTestId('confirm-remove-hub-two').click()
  await expect(page.getByTestId('hub-item-two')).toHaveCount(0)
})
