/**
 * Builds the three Electron targets. The renderer bundle is also what `muster serve` serves to a
 * browser, so it must never depend on Node or Electron at runtime.
 */
import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import react from '@vitejs/plugin-react'

export default defineConfig({
  main: {
    build: {
      externalizeDeps: true,
      // digest-worker: the fleet scan's worker thread, found beside the bundle (src/core/muse/digest-pool.ts)
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/main/index.ts'), 'digest-worker': resolve(__dirname, 'src/core/muse/digest-worker.ts') }
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
    plugins: [react()],
    build: {
      // electron-vite leaves the renderer unminified; `muster serve` ships it over HTTP, so minify.
      minify: true,
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } }
    }
  }
})
