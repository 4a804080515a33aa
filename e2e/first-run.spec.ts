import { test, expect } from './fixtures'

test('first run offers the demo fleet and creating it fills the overview', async ({ page, served }) => {
  await page.goto(served.openUrl)
  const offer = page.getByTestId('demo-offer')
  await expect(offer).toBeVisible()
  await page.screenshot({ path: 'e2e/artifacts/first-run.png' })
  await page.getByTestId('create-demo').click()
  for (const name of ['muse', 'dya', 'atlas']) await expect(page.getByTestId(`project-card-${name}`)).toBeVisible()
  await expect(offer).toHaveCount(0)
  const projects = served.cli(['projects', 'list']) as { count: number }
  expect(projects.count).toBe(3)
})
