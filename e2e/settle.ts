/**
 * Waiting for the page to settle before colours are judged (axe) or a screenshot is taken: every
 * finite animation and transition (the theme's colour transitions) has finished, and two frames
 * have been laid out since (virtual lists measure in a frame). Waits on the page's own state
 * instead of a fixed pause, so it is quick on a quiet machine and still right on a busy one.
 */
import type { Page } from '@playwright/test'

/** Resolves once no finite animation runs on `page` and two more frames have been drawn. */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity)
  )
  await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))))
}
