/**
 * `npm run bench` figures for the diff view: Muster's DiffView mounting the generated 5,000-line
 * patch in Chromium (first screen, median of 5) and blank rows sampled while scrolling.
 */
import { chromium } from '@playwright/test'
import { join } from 'node:path'
import type { Figure } from '../report'
import { bundlePage, dropPage, measurePage } from './measure'
import { generatePatch } from './patch-gen'

/** Measures the diff view; `root` is the repository root. */
export async function diffViewFigures(root: string): Promise<Figure[]> {
  const browser = await chromium.launch({
    executablePath: process.env.MUSTER_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu']
  })
  const bench = await bundlePage(join(root, 'bench', 'diff-view', 'muster-page.tsx'))
  try {
    const f = await measurePage(browser, 'Muster DiffView', bench, generatePatch(), '.diff-line', '.dv-scroll')
    const sorted = [...f.firstScreenMs].sort((a, b) => a - b)
    return [
      {
        name: 'diff view of a 5,000-line patch: first screen',
        value: sorted[2]!,
        runs: f.firstScreenMs,
        unit: 'ms',
        budget: 200,
        note: `median of 5, best ${sorted[0]!.toFixed(0)} ms, Chromium`
      },
      {
        name: 'diff view of a 5,000-line patch: scroll check, blank rows',
        value: f.blankRows,
        unit: 'lines',
        budget: 0,
        note: '5 scroll positions sampled every 18 px'
      }
    ]
  } finally {
    dropPage(bench)
    await browser.close()
  }
}
