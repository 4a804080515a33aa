/**
 * Compares diff renderers on the generated 5,000-line patch (the measurement behind
 * docs/diff-view.md). Run: npx esbuild bench/diff-view/compare.ts --bundle --platform=node
 * --format=esm --packages=external --outfile=out/bench/compare.mjs && node out/bench/compare.mjs
 */
import { chromium } from '@playwright/test'
import { join } from 'node:path'
import { bundlePage, dropPage, measurePage } from './measure'
import { generatePatch } from './patch-gen'

const HERE = join(process.cwd(), 'bench', 'diff-view')

async function main(): Promise<void> {
  const patch = generatePatch()
  console.log(`patch: ${patch.split('\n').length} lines, ${patch.length} bytes`)
  const browser = await chromium.launch({
    executablePath: process.env.MUSTER_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu']
  })
  const pages: [string, string, string, string?][] = [
    ['react-diff-view 3.3.3', 'rdv-page.tsx', '.diff-line'],
    ['@git-diff-view/react 0.1.7', 'gdv-page.tsx', '.diff-line'],
    ['Muster DiffView (react-diff-view, large files collapsed)', 'muster-page.tsx', '.diff-line', '.dv-scroll']
  ]
  try {
    for (const [name, file, sel, scroller] of pages) {
      const bench = await bundlePage(join(HERE, file))
      const f = await measurePage(browser, name, bench, patch, sel, scroller)
      dropPage(bench)
      const sorted = [...f.firstScreenMs].sort((a, b) => a - b)
      console.log(
        `${name}: first screen best ${sorted[0]!.toFixed(0)} ms, median ${sorted[2]!.toFixed(0)} ms; blank rows ${f.blankRows}; bundle ${f.jsGzipKb} KiB gz; CRLF visible ${f.crlfVisible}`
      )
    }
  } finally {
    await browser.close()
  }
}

await main()
