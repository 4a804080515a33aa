/**
 * Measures a diff renderer page in Chromium: bundles the page with Vite (as the app's renderer is
 * built: workers included), serves it on 127.0.0.1, mounts the generated 5,000-line patch, and
 * reports time to first screen, blank rows while scrolling, bundle size and whether CRLF lines
 * keep their carriage return visibly.
 */
import { createReadStream, mkdtempSync, readdirSync, readFileSync, writeFileSync, rmSync, statSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { extname, join, normalize, sep } from 'node:path'
import { gzipSync } from 'node:zlib'
import type { Browser } from '@playwright/test'
import react from '@vitejs/plugin-react'
import { build } from 'vite'

/** One renderer's figures. */
export interface DiffFigures {
  name: string
  firstScreenMs: number[]
  blankRows: number
  jsGzipKb: number
  crlfVisible: boolean
}

/** A bundled page served over HTTP (module scripts and workers do not load from file://). */
export interface BenchPage {
  /** The served folder (the page's files). */
  dir: string
  /** The page's index.html. */
  url: string
  jsGzipKb: number
  server: Server
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' }

/** Every file below `dir`, relative paths. */
function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? filesUnder(dir, join(prefix, d.name)) : [join(prefix, d.name)]
  )
}

/** Serves `dir` on 127.0.0.1 (static files only); resolves with the server and its base URL. */
function serveDir(dir: string): Promise<{ server: Server; base: string }> {
  const server = createServer((req, res) => {
    const path = normalize(join(dir, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)))
    if (!path.startsWith(dir + sep) || !statSync(path, { throwIfNoEntry: false })?.isFile()) {
      res.writeHead(404).end()
      return
    }
    res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' })
    createReadStream(path).pipe(res)
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const addr = server.address() as { port: number }
      resolve({ server, base: `http://127.0.0.1:${addr.port}/` })
    })
  )
}

/** Bundles `entry` (a page that defines window.mountDiff) with Vite into a served folder with an index.html. */
export async function bundlePage(entry: string): Promise<BenchPage> {
  const root = mkdtempSync(join(tmpdir(), 'muster-diff-bench-'))
  const dir = join(root, 'page')
  await build({
    configFile: false,
    root,
    logLevel: 'warn',
    plugins: [react()],
    define: { 'process.env.NODE_ENV': '"production"' },
    build: {
      outDir: dir,
      emptyOutDir: false,
      minify: process.env.MUSTER_BENCH_NOMINIFY ? false : true,
      rollupOptions: { input: { page: entry }, output: { entryFileNames: '[name].js', assetFileNames: '[name][extname]' } }
    }
  })
  const files = filesUnder(dir)
  const css = files.filter((f) => f.endsWith('.css') && !f.includes(sep))
  writeFileSync(
    join(dir, 'index.html'),
    `<!doctype html><html><head><meta charset="utf-8">${css.map((f) => `<link rel="stylesheet" href="${f}">`).join('')}<style>body{margin:0}</style></head><body><div id="root"></div><script type="module" src="page.js"></script></body></html>`
  )
  const gz = files.filter((f) => /\.(js|css)$/.test(f)).reduce((n, f) => n + gzipSync(readFileSync(join(dir, f))).length, 0)
  const { server, base } = await serveDir(dir)
  return { dir, url: `${base}index.html`, jsGzipKb: Math.round(gz / 1024), server }
}

/** Counts sample points of the scroller's viewport not covered by a rendered diff row. */
const COUNT_BLANK = `(sel) => {
  const s = document.querySelector(sel); const r = s.getBoundingClientRect(); let blank = 0
  for (let y = r.top + 40; y < r.bottom - 10; y += 18) {
    const el = document.elementFromPoint(r.left + r.width / 2, y)
    if (!el || el === s || el === document.body || !(el.closest('tr, [data-line], h3, [data-diff-row]'))) blank++
  }
  return blank
}`

/** Mounts `patch` on the bundled page 5 times and takes the figures. */
export async function measurePage(
  browser: Browser,
  name: string,
  bench: BenchPage,
  patch: string,
  rowSelector: string,
  scroller = '#scroller'
): Promise<DiffFigures> {
  const firstScreenMs: number[] = []
  let blankRows = 0
  let crlfVisible = false
  for (let i = 0; i < 5; i++) {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
    await page.goto(bench.url)
    await page.waitForFunction("'mountDiff' in window")
    // browser-side code as strings: this file is type-checked for Node, without the DOM library
    const ms = (await page.evaluate(`(async () => {
      const t0 = performance.now()
      window.mountDiff(${JSON.stringify(patch)})
      while (!document.querySelector(${JSON.stringify(rowSelector)})) await new Promise((r) => setTimeout(r, 0))
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))
      return performance.now() - t0
    })()`)) as number
    firstScreenMs.push(ms)
    if (i === 0) {
      await page.waitForTimeout(1500) // lets progressive rendering finish before the scroll check
      for (const frac of [0.1, 0.3, 0.5, 0.7, 0.95]) {
        await page.evaluate(
          `(() => { const el = document.querySelector(${JSON.stringify(scroller)}); el.scrollTop = (el.scrollHeight - el.clientHeight) * ${frac} })()`
        )
        await page.evaluate('new Promise((r) => requestAnimationFrame(() => r(null)))')
        blankRows += (await page.evaluate(`(${COUNT_BLANK})(${JSON.stringify(scroller)})`)) as number
      }
      crlfVisible = (await page.evaluate("document.body.innerText.includes('\u21b5')")) as boolean
    }
    await page.close()
  }
  return { name, firstScreenMs, blankRows, jsGzipKb: bench.jsGzipKb, crlfVisible }
}

/** Stops serving a bundled page and removes its folder. */
export function dropPage(bench: BenchPage): void {
  bench.server.close()
  rmSync(join(bench.dir, '..'), { recursive: true, force: true })
}
