#!/usr/bin/env node
/**
 * `npm run build:cli`: bundles the `muster` CLI into `out/cli/` with esbuild. The entry
 * (`muster.mjs`, run by `bin/muster.mjs`) holds only the command definitions; every action module
 * (`src/cli/actions/*`, imported with `import()`) and what it needs lands in shared chunks loaded
 * when a command runs, so `muster --help` and small commands start fast. Packages stay external
 * (resolved from node_modules at run time) except `commander`, which every run needs: bundled, it
 * skips Node's CommonJS-from-ESM loading (about 10 ms of a ~100 ms start). The folder is emptied
 * first so stale chunks never pile up.
 *
 * Usage: node scripts/build-cli.mjs [--outdir DIR] [--metafile]
 *   --outdir DIR  write there instead of out/cli
 *   --metafile    also write DIR/meta.json (esbuild's import graph; used by cli-startup.test.ts)
 */
import { rmSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
const at = args.indexOf('--outdir')
const outdir = resolve(at >= 0 ? args[at + 1] : join(ROOT, 'out', 'cli'))

/** Packages bundled into the output; every other bare import stays external. */
const BUNDLED = new Set(['commander'])

/** esbuild plugin: bare imports (packages and Node built-ins) are external unless in BUNDLED. */
const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (a) => (BUNDLED.has(a.path) ? undefined : { path: a.path, external: true }))
  }
}

rmSync(outdir, { recursive: true, force: true })
const result = await build({
  absWorkingDir: ROOT,
  entryPoints: { muster: 'src/cli/main.ts' },
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  plugins: [externalPackages],
  // bundled CommonJS (commander) calls require() for Node built-ins: give the ESM chunks one
  banner: { js: "import { createRequire as __muster_createRequire } from 'node:module'; const require = __muster_createRequire(import.meta.url);" },
  outdir,
  outExtension: { '.js': '.mjs' },
  chunkNames: '[name]-[hash]',
  metafile: args.includes('--metafile'),
  logLevel: 'warning'
})
if (result.metafile) writeFileSync(join(outdir, 'meta.json'), JSON.stringify(result.metafile))
