/**
 * axe on every screen of the app against the demo fleet, in light and dark: the seven sidebar
 * screens, the role file view, memory search, invocation chains, an open patch, and the command
 * palette. No serious or critical violation may remain.
 */
import type { Page } from '@playwright/test'
import { seriousViolations } from './axe'
import { expect, test } from './fixtures'
import { settled } from './settle'

const ROUTES: { name: string; hash: string; ready: (page: Page) => Promise<void> }[] = [
  { name: 'overview', hash: '#/overview', ready: (p) => expect(p.getByTestId('project-card-muse')).toBeVisible() },
  ...(['directives', 'timeline', 'approvals', 'notes', 'settings', 'connect'] as const).map((id) => ({
    name: id,
    hash: `#/${id}`,
    ready: async (p: Page) => {
      await expect(p.getByTestId(`screen-${id}`)).toBeVisible()
      await expect(p.locator(`[data-testid="screen-${id}"] .state-loading`)).toHaveCount(0)
    }
  })),
  {
    name: 'patches (one open)',
    hash: '#/patches',
    ready: async (p) => {
      await expect(p.getByTestId('patch-detail')).toBeVisible()
      await expect(p.getByTestId('diff-view')).toBeVisible()
    }
  },
  { name: 'role file', hash: '#/role/muse/build', ready: (p) => expect(p.locator('.rv-doc')).toBeVisible() },
  { name: 'memory search', hash: '#/memory?q=cache', ready: (p) => expect(p.locator('main')).toBeVisible() },
  { name: 'chains', hash: '#/chains', ready: (p) => expect(p.locator('main')).toBeVisible() }
]

for (const scheme of ['light', 'dark'] as const) {
  test(`axe: no serious or critical violations on any screen (${scheme})`, async ({ page, shownDemo: demo }) => {
    test.setTimeout(480_000) // eleven screens, each scanned whole by axe: minutes on a busy 2-core machine
    await page.emulateMedia({ colorScheme: scheme })
    await page.goto(demo.openUrl)
    const found: string[] = []
    for (const r of ROUTES) {
      await page.goto(`${demo.openUrl}${r.hash}`)
      await r.ready(page)
      await settled(page) // theme transitions settle before colours are judged
      found.push(...(await seriousViolations(page)).map((v) => `${r.name}: ${v}`))
    }
    await page.keyboard.press('Control+k')
    await expect(page.getByTestId('command-palette')).toBeVisible()
    found.push(...(await seriousViolations(page)).map((v) => `palette: ${v}`))
    expect(found).toEqual([])
  })
}
