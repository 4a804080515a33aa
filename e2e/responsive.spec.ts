/**
 * Every screen at every size (issue 20, point 5): a phone (390x844), a tablet (768x1024), a laptop
 * (1280x800) and a desktop (1600x1000), both themes. No horizontal scrolling on any screen, the
 * Approve and Deny buttons of a pending approval in view, axe clean; a screenshot of each screen at
 * each size in each theme (e2e/artifacts/responsive/) to look at. Nothing cut off or squeezed (issue
 * 33, point 6): every hub card's counts and agent chips inside the card, the role tables' top
 * priority column wide enough for its one-line header, each screen's subtitle at a readable width. At the desktop size axe is
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
  ['settings', '#/settings', 'screen-settings'],
  ['connect', '#/connect', 'screen-connect']
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

/** What is cut off or squeezed on the current screen: hub cards, role tables, the subtitle. */
async function squeezed(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = []
    const name = (el: Element): string => `${el.tagName.toLowerCase()}.${el.className} "${(el.textContent ?? '').trim().slice(0, 40)}"`
    for (const card of document.querySelectorAll('.hub-card')) {
      const c = card.getBoundingClientRect()
      for (const el of card.querySelectorAll('.hub-count, .hub-agent')) {
        const r = el.getBoundingClientRect()
        if (r.right > c.right + 1 || r.left < c.left - 1)
          out.push(
            `hub card cuts off ${name(el)} (${Math.round(r.left)}-${Math.round(r.right)} in ${Math.round(c.left)}-${Math.round(c.right)})`
          )
      }
    }
    for (const th of document.querySelectorAll('table.roles thead th')) {
      const r = th.getBoundingClientRect()
      if (r.width > 0 && r.height > 40)
        out.push(`role table header ${name(th)} wraps: ${Math.round(r.height)}px high, ${Math.round(r.width)}px wide`)
    }
    const sub = document.querySelector('#main .screen-header-text p')
    if (sub && sub.getBoundingClientRect().width < 240) out.push(`subtitle squeezed to ${Math.round(sub.getBoundingClientRect().width)}px`)
    return out
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
        for (const p of await squeezed(page)) problems.push(`${name}: ${p}`)
        if (name === 'approvals') {
          for (const b of ['approve', 'deny']) {
            const box = await page.getByTestId(b).boundingBox()
            if (!box || box.x < 0 || box.x + box.width > size.width || box.y + box.height > size.height)
              problems.push(`approvals: ${b} not in view (${JSON.stringify(box)})`)
          }
        }
        if (axe) for (const v of await seriousViolations(page)) problems.push(`${name}: axe: ${v}`)
        await page.screenshot({ path: `e2e/artifacts/responsive/${name}-${size.name}-${scheme}.png` })
        if (name === 'overview') {
          // below the fold: the hub card and the first project's role table
          await page.locator('.hub-card').first().scrollIntoViewIfNeeded()
          await settled(page)
          await page.screenshot({ path: `e2e/artifacts/responsive/overview-hub-${size.name}-${scheme}.png` })
        }
      }
      expect(problems).toEqual([])
    })
  }
}
