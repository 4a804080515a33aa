/**
 * The Overview's first paint comes first: the needs-you queue, the directive index and lint are
 * asked for only once the project cards are on screen, and their figures still arrive then.
 */
import type { Route } from '@playwright/test'
import { call } from './api'
import { test, expect } from './fixtures'

interface Needs {
  count: number
}

test('needs-you, directives and lint wait for the cards, then the Overview shows the queue', async ({ page, demo, request }) => {
  const asked: string[] = []
  page.on('request', (r) => {
    const m = /\/api\/call\/([\w.]+)/.exec(r.url())
    if (m) asked.push(m[1]!)
  })
  // the fleet's answer is held until the skeleton has painted
  let release: () => void = () => undefined
  const held = new Promise<void>((r) => (release = r))
  await page.route('**/api/call/fleet.status', async (route: Route) => {
    await held
    await route.continue()
  })
  await page.goto(demo.openUrl)
  await expect(page.getByRole('status', { name: 'Loading the fleet' })).toBeVisible()
  // several frames painted with the skeleton: nothing the cards do not show was asked for
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(r)))))
  expect(asked).toContain('fleet.status')
  expect(asked.filter((m) => ['needs.list', 'muse.directives', 'muse.lint'].includes(m))).toEqual([])

  release()
  await expect(page.locator('[data-testid^="project-card-"]').first()).toBeVisible()
  const needs = await call<Needs>(request, demo, 'needs.list', {})
  expect(needs.count).toBeGreaterThan(0)
  await expect(page.getByTestId('needs-count')).toHaveText(String(needs.count))
  await expect.poll(() => page.title()).toMatch(new RegExp(`^\\(${needs.count}\\) `))
  expect(asked).toEqual(expect.arrayContaining(['needs.list', 'muse.directives', 'muse.lint']))
})

test('a phone opens on the needs-you queue, read first; the Overview is one tap away', async ({ page, demo, request }) => {
  const asked: string[] = []
  page.on('request', (r) => {
    const m = /\/api\/call\/([\w.]+)/.exec(r.url())
    if (m) asked.push(m[1]!)
  })
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto(demo.openUrl)
  const needs = await call<Needs>(request, demo, 'needs.list', {})
  await expect(page.getByTestId('screen-needs')).toBeVisible()
  await expect(page.getByTestId('needs-list').getByTestId('need-item')).toHaveCount(needs.count)
  await expect.poll(() => page.title()).toBe(`(${needs.count}) Needs you · Muster`)
  // the queue is the first read; the fleet's cards are not on this screen
  expect(asked[0]).toBe('needs.list')
  expect(asked).not.toContain('fleet.status')
  // the sidebar shows where the queue lives: the Overview entry, which opens the whole fleet
  await expect(page.getByTestId('nav-overview')).toHaveAttribute('aria-current', 'page')
  await page.getByRole('link', { name: 'Fleet overview' }).click()
  await expect(page.getByTestId('screen-overview')).toBeVisible()
  await expect(page.locator('[data-testid^="project-card-"]').first()).toBeVisible()
})

test('a larger screen opens on the Overview; #/needs opens the queue there too', async ({ page, demo }) => {
  await page.goto(demo.openUrl)
  await expect(page.getByTestId('screen-overview')).toBeVisible()
  await page.evaluate(() => (window.location.hash = '#/needs'))
  await expect(page.getByTestId('screen-needs')).toBeVisible()
  await expect(page.getByTestId('needs-list').getByTestId('need-item').first()).toBeVisible()
})

test('on a slow machine, a link opened right after load is followed', async ({ page, served }) => {
  // an 8x slower CPU: the app mounts well after the load event, as on a busy 2-core laptop
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 8 })
  await page.goto(served.openUrl)
  await page.goto(`${served.openUrl.replace(/\?.*$/, '')}#/settings`)
  await expect(page.getByTestId('screen-settings')).toBeVisible()
  await page.goto(`${served.openUrl.replace(/\?.*$/, '')}#/chains`)
  await expect(page.getByTestId('chains-screen')).toBeVisible()
})
