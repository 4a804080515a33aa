/**
 * Every screen at every size (issue 20, point 5): a phone (390x844), a tablet (768x1024), a laptop
 * (1280x800) and a desktop (1600x1000), both themes. No horizontal scrolling on any screen, the
 * Approve and Deny buttons of a pending approval in view, axe clean; a screenshot of each screen at
 * each size in each theme (e2e/artifacts/responsive/) to look at. At the desktop size axe is
 * a11y.spec.ts's job: it scans every screen there in both themes (1600x1000 is the suite's viewport).
 */
import type { Page } from '@playwright/test'
import { seriousViolations } from './axe'
import { test, expect } from './fixtures'
import { settled } from './settle'

const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'tablet', width: 768, height: 1024 },
  { name: 'laptop', width: 1280, height: 800 },
  { name: 'desktop', width: 1600, height: 1000, axeElsewhere: true }
] as const

/** Each screen's address and the element that shows it is there. */
const ROUTES = [
  ['overview', '#/overview', 'screen-overview'],
  ['needs', '#/needs', 'screen-needs'],
  ['directives', '#/directives', 'screen-directives'],
  ['role', '#/role/muse/build', 'role-viewer'],
  ['memory', '#/memory', 'memory-search'],
  ['chains', '#/chains', 'chains-screen'],
  ['timeline', '#/timeline', 'screen-timeline'],
  ['patches', '#/patches', 'screen-patches'],
  ['approvals', '#/approvals', 'screen-approvals'],
  ['notes', '#/notes', 'screen-notes'],
  ['settings', '#/settings', 'screen-settings']
] as const

/** How far the page and the main column scroll sideways (0 when they do not). */
async function sideways(page: Page): Promise<{ page: number; main: number; widest: string }> {
  return page.evaluate(() => {
    const main = document.getElementById('main')!
    // the widest element sticking out of the viewport, to name in a failure
    let widest = ''
    let most = window.innerWidth
    for (const el of document.querySelectorAll<HTMLElement>('#main *, .sidebar *')) {
      const r = el.getBoundingClientRect()
      if (r.right > most + 1 && getComputedStyle(el).position !== 'fixed') {
        most = r.right
        widest = `${el.tagName.toLowerCase()}.${el.className} (${Math.round(r.right)}px)`
      }
    }
    return {
      page: Math.max(0, document.documentElement.scrollWidth - window.innerWidth),
      main: Math.max(0, main.scrollWidth - main.clientWidth),
      widest
    }
  })
}

for (const size of SIZES) {
  for (const scheme of ['light', 'dark'] as const) {
    const axe = 'axeElsewhere' in size ? '' : ', axe clean'
    test(`${size.name} ${size.width}x${size.height} (${scheme}): every screen fits, approve/deny in reach${axe}`, async ({
      page,
      shownDemo: demo
    }) => {
      test.setTimeout(400_000)
      await page.setViewportSize({ width: size.width, height: size.height })
      await page.emulateMedia({ colorScheme: scheme })
      await page.goto(demo.openUrl)
      // a phone opens on the needs-you queue, a larger screen on the Overview (first-paint.spec.ts)
      await expect(page.getByTestId(size.name === 'phone' ? 'screen-needs' : 'screen-overview')).toBeVisible()
      const problems: string[] = []
      for (const [name, hash, testId] of ROUTES) {
        await page.evaluate((h) => (window.location.hash = h), hash)
        await expect(page.getByTestId(testId)).toBeVisible()
        await expect(page.locator('#main .state-loading')).toHaveCount(0)
        await settled(page) // layout settles (virtual lists measure)
        const s = await sideways(page)
        if (s.page > 0 || s.main > 0)
          problems.push(`${name}: scrolls sideways by ${s.page}px (page) / ${s.main}px (main); widest: ${s.widest}`)
        if (name === 'approvals') {
          for (const b of ['approve', 'deny']) {
            const box = await page.getByTestId(b).boundingBox()
            if (!box || box.x < 0 || box.x + box.width > size.width || box.y + box.height > size.height)
              problems.push(`approvals: ${b} not in view (${JSON.stringify(box)})`)
          }
        }
        if (axe) for (const v of await seriousViolations(page)) problems.push(`${name}: axe: ${v}`)
        await page.screenshot({ path: `e2e/artifacts/responsive/${name}-${size.name}-${scheme}.png` })
      }
      expect(problems).toEqual([])
    })
  }
}
