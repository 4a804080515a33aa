/**
 * Builds the three Electron targets. The renderer bundle is also what `muster serve` serves to a
 * browser, so it must never depend on Node or Electron at runtime.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import type { Plugin } from 'vite'
import react from '@vitejs/plugin-react'
import { META_CSP } from './src/shared/csp'

/**
 * The built `index.html` carries the app's CSP in a meta tag too (the `app://` handler and
 * `muster serve` send it as a header). Build only: the dev server's refresh preamble is inline.
 */
const cspMeta: Plugin = {
  name: 'muster-csp-meta',
  apply: 'build',
  transformIndexHtml: () => [
    { tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: META_CSP }, injectTo: 'head-prepend' }
  ]
}

/**
 * The installable app's icons (`muster serve`'s web app manifest, src/server/web-app.ts): Muster's
 * own icon from `resources/`, emitted into the renderer's build as `icons/`.
 */
const webAppIcons: Plugin = {
  name: 'muster-web-app-icons',
  apply: 'build',
  generateBundle() {
    for (const name of ['icon.png', 'icon.svg'])
      this.emitFile({ type: 'asset', fileName: `icons/${name}`, source: readFileSync(resolve(__dirname, 'resources', name)) })
  }
}

export default defineConfig({
  main: {
    build: {
      externalizeDeps: true,
      // digest-worker: the fleet scan's worker thread, found beside the bundle (src/core/muse/digest-pool.ts)
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          'digest-worker': resolve(__dirname, 'src/core/muse/digest-worker.ts'),
          // gate health off the main thread (src/core/approvals/gate-monitor.ts)
          'gate-health-worker': resolve(__dirname, 'src/core/root/gate-health-worker.ts')
        }
      }
    }
  },
  preload: {
    build: {
      // A sandboxed preload must be a single CommonJS file with no external requires.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' }
      }
    }
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    plugins: [react(), cspMeta, webAppIcons],
    // Radix's scroll lock (in the command palette's dialog) injects a <style> element, which the
    // CSP refuses: the same rules go into a CSSOM stylesheet instead (see the file).
    resolve: { alias: [{ find: /^react-style-singleton$/, replacement: resolve(__dirname, 'src/renderer/src/lib/style-singleton.ts') }] },
    build: {
      // electron-vite leaves the renderer unminified; `muster serve` ships it over HTTP, so minify.
      minify: true,
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/renderer/index.html') },
        // React (react-dom alone is 206 KB minified) in a file of its own, beside the app's entry:
        // the two load in parallel, and a Muster upgrade that leaves React as it was keeps it cached.
        // Every screen is its own chunk (app.tsx), so the first paint loads the shell and one screen.
        output: { codeSplitting: { groups: [{ name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ }] } }
      }
    }
  }
})
