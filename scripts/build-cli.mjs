#!/usr/bin/env node
/**
 * `npm run build:cli`: bundles the `muster` CLI into `out/cli/` with esbuild. The entry
 * (`muster.mjs`, run by `bin/muster.cjs`) holds only the command definitions; every action module
 * (`src/cli/actions/*`, imported with `import()`) and what it needs lands in shared chunks loaded
 * when a command runs, so `muster --help` and small commands start fast.
 *
 * Packages are bundled too (only Node built-ins, better-sqlite3's native addon, which
 * `core/sqlite.ts` loads by path, and `bindings`, its unused fallback finder, stay outside): where
 * Muster runs, loading a module costs far more than its code (file-system calls per module), and
 * a bundled commander, zod or better-sqlite3 is one chunk instead of dozens to hundreds of files
 * (zod: ~60 instead of 130-250 ms). commander's `require('node:child_process')`, used only for
 * executable subcommands Muster does not have, is deferred to first use (it pulls `net` and
 * streams: ~10 ms of every run). The folder is emptied first so stale chunks never pile up.
 *
 * Usage: node scripts/build-cli.mjs [--outdir DIR] [--metafile]
 *   --outdir DIR  write there instead of out/cli
 *   --metafile    also write DIR/meta.json (esbuild's import graph; used by cli-startup.test.ts)
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire, isBuiltin } from 'node:module'
import { dirname, join, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { flattenFaces } from './flatten-faces.mjs'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
const at = args.indexOf('--outdir')
const outdir = resolve(at >= 0 ? args[at + 1] : join(ROOT, 'out', 'cli'))

/** Bare imports left to Node at run time besides its built-ins. */
const EXTERNAL = new Set(['bindings'])

/**
 * Packages whose `main` is a UMD wrapper that requires its own files through a variable (esbuild
 * cannot follow it: the bundle would throw "Cannot find module './impl/format'"): their ES
 * build (`module` field) is bundled instead.
 */
const ESM_BUILD = new Set(['jsonc-parser'])
const rootRequire = createRequire(join(ROOT, 'package.json'))

/** The file of a package's `module` field. */
function esmBuildOf(pkg) {
  const manifest = rootRequire.resolve(`${pkg}/package.json`)
  return join(dirname(manifest), JSON.parse(readFileSync(manifest, 'utf8')).module)
}

/** esbuild plugin: Node built-ins (through require) and EXTERNAL stay outside; commander's child_process is deferred. */
const packagesPlugin = {
  name: 'muster-packages',
  setup(b) {
    b.onResolve({ filter: /^(node:)?child_process$/ }, (a) =>
      a.importer.includes(`${sep}commander${sep}`)
        ? { path: 'deferred-child-process', namespace: 'muster' }
        : { path: a.path, external: true }
    )
    b.onLoad({ filter: /^deferred-child-process$/, namespace: 'muster' }, () => ({
      contents: "module.exports = { spawn: (...args) => require('node:child_process').spawn(...args) }",
      loader: 'js'
    }))
    b.onResolve({ filter: /^[^./]/ }, (a) => {
      if (ESM_BUILD.has(a.path)) return { path: esmBuildOf(a.path) }
      // an ES import of a built-in makes Node build its ES facade, which reads every export, lazy
      // ones included (node:fs's ReadStream loads all of node:stream): go through require instead
      if (isBuiltin(a.path) && a.kind === 'import-statement') return { path: a.path, namespace: 'builtin' }
      return isBuiltin(a.path) || EXTERNAL.has(a.path) ? { path: a.path, external: true } : undefined
    })
    b.onLoad({ filter: /.*/, namespace: 'builtin' }, (a) => ({
      contents: `module.exports = require(${JSON.stringify(a.path)})`,
      loader: 'js'
    }))
  }
}

rmSync(outdir, { recursive: true, force: true })
/** What every bundle shares. */
const common = {
  absWorkingDir: ROOT,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // a domain face (src/core/<domain>/index.ts) costs nothing at run time: see flatten-faces.mjs
  plugins: [packagesPlugin, flattenFaces(ROOT)],
  // bundled CommonJS (commander, better-sqlite3) calls require() for Node built-ins and the addon: give the ESM chunks one
  banner: {
    js: "import { createRequire as __muster_createRequire } from 'node:module'; const require = __muster_createRequire(import.meta.url);"
  },
  outdir,
  outExtension: { '.js': '.mjs' },
  metafile: args.includes('--metafile'),
  logLevel: 'warning'
}
const result = await build({
  ...common,
  // `approve-hook` has its own entry: it runs on every tool call of every agent (see src/cli/hook-main.ts)
  // `digest-worker`: the fleet scan's worker thread (src/core/muse/digest-pool.ts finds it beside its chunk)
  entryPoints: { muster: 'src/cli/main.ts', 'approve-hook': 'src/cli/hook-main.ts', 'digest-worker': 'src/core/muse/digest-worker.ts' },
  splitting: true,
  chunkNames: '[name]-[hash]'
})
// `status` answers agents' hooks from its snapshot (src/cli/status-main.ts): one CommonJS file,
// required by bin/muster.cjs, so that an answered call never starts the ES module loader; the CLI
// stays apart (it is imported when the snapshot cannot answer)
const status = await build({
  ...common,
  entryPoints: { status: 'src/cli/status-main.ts' },
  splitting: false,
  format: 'cjs',
  outExtension: { '.js': '.cjs' },
  banner: { js: "const __muster_import_meta_url = require('node:url').pathToFileURL(__filename).href;" },
  define: { 'import.meta.url': '__muster_import_meta_url' }
})
if (result.metafile && status.metafile) {
  const merged = {
    inputs: { ...result.metafile.inputs, ...status.metafile.inputs },
    outputs: { ...result.metafile.outputs, ...status.metafile.outputs }
  }
  writeFileSync(join(outdir, 'meta.json'), JSON.stringify(merged))
}
