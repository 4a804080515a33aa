/**
 * Accessibility checks for the e2e suite: axe (all its rules: WCAG 2.x A and AA, best practices) on the page or a part of
 * it, reporting the serious and critical violations one line per node, with axe's own summary
 * (for contrast: the two colours and the ratio found).
 */
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'

/** The serious and critical violations on `page` (inside `include`, a CSS selector, when given). */
export async function seriousViolations(page: Page, include?: string): Promise<string[]> {
  // every rule runs; only violations are reported in full (axe's resultTypes: passes and the rest
  // are summarised, which saves most of a scan's time on a big page)
  let builder = new AxeBuilder({ page }).options({ resultTypes: ['violations'] })
  if (include) builder = builder.include(include)
  const { violations } = await builder.analyze()
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}: ${n.failureSummary?.split('\n').slice(1).join(' ').trim() ?? ''}`))
}
