#!/usr/bin/env node
/**
 * `npm run build:cli`: bundles the `muster` CLI into `out/cli/` with esbuild. The command tree
 * (`muster.cjs`, required by `bin/muster.cjs`: commander, the command definitions and `runCli`) is
 * one CommonJS file, so `muster --help` and every command start without the ES module loader. Each
 * action module (`src/cli/actions/*`, imported with `import()` when its command runs) is an ES
 * module entry of its own (`action-<name>.mjs`) whose code lands in shared chunks; the one module
 * both sides use, `src/cli/output.ts` (its `CliError`/`CliExit` are thrown by actions and caught by
 * `runCli`), is a CommonJS file of its own (`cli-output.cjs`), so both see one copy of its classes.
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
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
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
const EXTERNAL = new Set(['bindings', 'koffi'])

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
      // (CommonJS output requires built-ins directly: their exports are not copied into a facade)
      if (isBuiltin(a.path) && a.kind === 'import-statement' && b.initialOptions.format !== 'cjs')
        return { path: a.path, namespace: 'builtin' }
      return isBuiltin(a.path) || EXTERNAL.has(a.path) ? { path: a.path, external: true } : undefined
    })
    b.onLoad({ filter: /.*/, namespace: 'builtin' }, (a) => ({
      contents: `module.exports = require(${JSON.stringify(a.path)})`,
      loader: 'js'
    }))
  }
}

/**
 * esbuild plugin for the hook entries: the composition root's heavier parts (src/core/root/parts.ts
 * and hub-parts.ts: the service, the hub and patch services) are never asked for there, so they are left out rather
 * than built as a lazy part; loading one would throw.
 */
const lightRootOnly = {
  name: 'muster-light-root',
  setup(b) {
    b.onResolve({ filter: /^\.\/(hub-)?parts$/ }, (a) =>
      a.kind === 'dynamic-import' && a.importer.endsWith(join('src', 'core', 'root', 'root.ts'))
        ? { path: 'root-parts', namespace: 'muster-absent' }
        : undefined
    )
    b.onLoad({ filter: /.*/, namespace: 'muster-absent' }, () => ({
      contents: "throw new Error('this part of the composition root is not in the hook entries')",
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
/** The action modules (`src/cli/actions/<name>.ts`), each an ES module entry `action-<name>`. */
const actions = Object.fromEntries(
  readdirSync(join(ROOT, 'src', 'cli', 'actions'))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => [`action-${f.slice(0, -3)}`, `src/cli/actions/${f}`])
)
const OUTPUT = join(ROOT, 'src', 'cli', 'output.ts')
/**
 * esbuild plugin: `src/cli/output.ts` is the CommonJS file `./cli-output.cjs` for the command tree
 * and the actions alike: one copy of `CliError` and `CliExit`, which actions throw and `runCli`
 * tells apart with `instanceof`.
 */
const sharedOutput = {
  name: 'muster-shared-output',
  setup(b) {
    b.onResolve({ filter: /(^|\/)output$/ }, async (a) => {
      if (a.pluginData === 'shared-output') return undefined
      const r = await b.resolve(a.path, { kind: a.kind, resolveDir: a.resolveDir, importer: a.importer, pluginData: 'shared-output' })
      return r.path === OUTPUT ? { path: './cli-output.cjs', external: true } : undefined
    })
  }
}
const result = await build({
  ...common,
  plugins: [sharedOutput, ...common.plugins],
  // `digest-worker`: the fleet scan's worker thread (src/core/muse/digest-pool.ts finds it beside its chunk)
  // `session-worker`: the session hook's detached append (src/cli/session-worker.ts)
  entryPoints: {
    ...actions,
    'digest-worker': 'src/core/muse/digest-worker.ts',
    // `gate-health-worker`: gate health off the main thread of `muster serve` (src/core/approvals/gate-monitor.ts)
    'gate-health-worker': 'src/core/root/gate-health-worker.ts',
    'session-worker': 'src/cli/session-worker.ts'
  },
  splitting: true,
  chunkNames: '[name]-[hash]'
})
/**
 * The entries agents' hooks run on every tool call, each one CommonJS file required by
 * bin/muster.cjs, so that a hook call never starts the ES module loader (its asynchronous reads
 * and per-module work cost more than the code): `approve-hook` (src/cli/hook-main.ts) and `status`
 * (src/cli/status-main.ts, answered from its snapshot; the CLI is imported when it cannot answer).
 * CommonJS cannot be split, so a module they `import()` (the remote hub and its zod schemas: rare,
 * heavy) is built as a CommonJS file of its own, `lazy-<name>.cjs`, required when it is first used.
 * Such a file has its own copies of the modules it shares with its importer: it must not rely on
 * the importer's module state or class identity (`instanceof`) across that line.
 */
/**
 * Built-ins the CommonJS entries require on first use, not when their file loads: node:crypto
 * (~3 ms, and it loads node:stream) is needed by `patch verify` only to hash the artifact, which
 * it does while its git process runs, and by many a hook call not at all. An import of one is a
 * small module of getters, one per name the importer takes, that requires the built-in when one
 * is first read (bundled code reads them at call time).
 */
const LAZY_BUILTINS = ['crypto']

/**
 * The names `file` imports from built-in `name` (`import { a, type B, c as d } from 'node:x'`),
 * or every name of the built-in when the file takes it any other way (default, namespace, require).
 */
function importedNames(file, name) {
  const source = readFileSync(file, 'utf8')
  const from = `from\\s*['"](?:node:)?${name}['"]`
  const named = [...source.matchAll(new RegExp(`import\\s*\\{([^}]*)\\}\\s*${from}`, 'g'))]
  const otherwise = new RegExp(`import\\s+[^{\\s][^;\\n]*${from}|require\\(\\s*['"](?:node:)?${name}['"]`).test(source)
  if (otherwise || !named.length) return Object.keys(rootRequire(`node:${name}`))
  const names = named.flatMap((m) => m[1].split(',').map((n) => n.trim()))
  return [...new Set(names.filter((n) => n && !n.startsWith('type ')).map((n) => n.split(/\s+as\s+/)[0]))].sort()
}

const lazyBuiltins = {
  name: 'muster-lazy-builtins',
  setup(b) {
    const filter = new RegExp(`^(node:)?(${LAZY_BUILTINS.join('|')})$`)
    b.onResolve({ filter }, (a) => {
      // the built-in itself, required by a module of getters
      if (a.namespace === 'muster-lazy-builtin') return { path: a.path, external: true }
      const name = a.path.replace(/^node:/, '')
      return { path: `${name}?${importedNames(a.importer, name).join(',')}`, namespace: 'muster-lazy-builtin' }
    })
    b.onLoad({ filter: /.*/, namespace: 'muster-lazy-builtin' }, (a) => {
      const [name, list] = a.path.split('?')
      const getters = list.split(',').filter((n) => /^[A-Za-z_$][\w$]*$/.test(n))
      return {
        contents: [
          'let m',
          `const load = () => (m ??= require(${JSON.stringify(`node:${name}`)}))`,
          `module.exports = { ${getters.map((n) => `get ${n}() { return load().${n} }`).join(', ')} }`
        ].join('\n'),
        loader: 'js'
      }
    })
  }
}
/** The WebAuthn library and the packages it loads (their ES builds, which can be tree-shaken). */
const WEBAUTHN_TREE =
  /[\\/]node_modules[\\/](@simplewebauthn[\\/]server|@peculiar[\\/][^\\/]+|asn1js|pvtsutils|pvutils|@levischuck[\\/]tiny-cbor|@hexagon[\\/]base64)[\\/]/
/**
 * esbuild plugin: the WebAuthn library (@simplewebauthn/server, whose assertion check the hook
 * loads as `lazy-webauthn-lib.cjs`) is bundled from the ES builds of it and its packages, each
 * module marked free of side effects, so what an assertion check never reaches (attestation
 * formats, certificate chains, the metadata service and its root certificates) is left out:
 * ~100 KB instead of ~420 KB, and a few milliseconds instead of tens to load. No code of the
 * library is changed or replaced; only unreached modules are dropped.
 */
const webauthnTree = {
  name: 'muster-webauthn-tree',
  setup(b) {
    b.onResolve({ filter: /.*/ }, async (a) => {
      if (a.pluginData === 'webauthn') return undefined
      const fromTree = WEBAUTHN_TREE.test(a.importer)
      if (!fromTree && a.path !== '@simplewebauthn/server' && a.path !== '@simplewebauthn/server/helpers') return undefined
      let path = a.path
      // a bare package from inside the tree: its ES build (`module`), where it has one
      if (/^[^./]/.test(path) && !isBuiltin(path)) {
        const pkg = path.startsWith('@') ? path.split('/').slice(0, 2).join('/') : path.split('/')[0]
        if (pkg === path) {
          try {
            const manifest = createRequire(a.importer || join(ROOT, 'package.json')).resolve(`${pkg}/package.json`)
            const m = JSON.parse(readFileSync(manifest, 'utf8'))
            if (typeof m.module === 'string') path = join(dirname(manifest), m.module)
          } catch {
            // no manifest to read (exports-only package): resolved as esbuild would
          }
        }
      }
      const r = await b.resolve(path, { kind: a.kind, resolveDir: a.resolveDir, importer: a.importer, pluginData: 'webauthn' })
      if (r.errors.length || r.external) return r.errors.length ? { errors: r.errors } : r
      return { ...r, sideEffects: false }
    })
  }
}
const cjs = {
  ...common,
  plugins: [webauthnTree, lazyBuiltins, ...common.plugins],
  splitting: false,
  format: 'cjs',
  outExtension: { '.js': '.cjs' },
  // import.meta.url on first use only (most runs never ask: node:url's pathToFileURL is not free)
  banner: { js: "const __muster_import_meta = { get url() { return require('node:url').pathToFileURL(__filename).href } };" },
  define: { 'import.meta': '__muster_import_meta' }
}
/** Lazy parts found so far: output name -> source file. */
const lazy = new Map()
/** esbuild plugin: a dynamic import of a source file becomes a require of its own `lazy-<name>.cjs`. */
const lazyParts = {
  name: 'muster-lazy-parts',
  setup(b) {
    b.onResolve({ filter: /^\./ }, async (a) => {
      if (a.kind !== 'dynamic-import' || a.pluginData === 'lazy') return undefined
      const r = await b.resolve(a.path, { kind: a.kind, resolveDir: a.resolveDir, importer: a.importer, pluginData: 'lazy' })
      if (r.errors.length) return { errors: r.errors }
      const name = `lazy-${r.path.replace(/^.*[\\/]/, '').replace(/\.[cm]?[jt]sx?$/, '')}`
      if (lazy.has(name) && lazy.get(name) !== r.path) throw new Error(`two lazy parts named ${name}: ${lazy.get(name)}, ${r.path}`)
      lazy.set(name, r.path)
      // through require, not import(): a CommonJS file imported goes through the ES module loader,
      // which scans its source for exports (~40 ms for the root's parts)
      return { path: name, namespace: 'muster-lazy' }
    })
    b.onLoad({ filter: /.*/, namespace: 'muster-lazy' }, (a) => ({
      contents: `module.exports = require(${JSON.stringify(`./${a.path}.cjs`)})`,
      loader: 'js'
    }))
    b.onResolve({ filter: /^\.\/lazy-.*\.cjs$/ }, (a) => ({ path: a.path, external: true }))
  }
}
/**
 * esbuild plugin: the contract's service, which the root's parts import on first use, is absent
 * from the CommonJS entries (none asks the root for it): loading it would throw.
 */
const noServicePart = {
  name: 'muster-no-service-part',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/service$/ }, (a) =>
      a.kind === 'dynamic-import' && a.importer.endsWith(join('src', 'core', 'root', 'parts.ts'))
        ? { path: 'service-part', namespace: 'muster-absent-service' }
        : undefined
    )
    b.onLoad({ filter: /.*/, namespace: 'muster-absent-service' }, () => ({
      contents: "throw new Error('the contract service is not in the CLI fast entries')",
      loader: 'js'
    }))
  }
}
/** esbuild plugin: a command's `import('../actions/<name>')` loads that action's ES module entry. */
const actionEntries = {
  name: 'muster-action-entries',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/actions\/[\w-]+$/ }, (a) => {
      if (a.kind !== 'dynamic-import') return undefined
      const name = `action-${a.path.slice('../actions/'.length)}`
      if (!actions[name]) return { errors: [{ text: `no action module ${a.path}` }] }
      return { path: `./${name}.mjs`, external: true }
    })
  }
}
// the command tree (src/cli/main.ts: commander, the definitions, runCli) and src/cli/output.ts
const tree = await build({
  ...cjs,
  entryPoints: { muster: 'src/cli/main.ts', 'cli-output': 'src/cli/output.ts' },
  plugins: [actionEntries, sharedOutput, ...cjs.plugins],
  metafile: true
})
for (const o of Object.values(tree.metafile.outputs))
  for (const i of o.imports)
    if (i.external && i.path.startsWith('./') && !existsSync(join(outdir, i.path)))
      throw new Error(`the command tree needs ${i.path}, not built`)
const lazyCjs = { ...cjs, plugins: [noServicePart, lazyParts, ...cjs.plugins], metafile: true }
const withLazy = { ...lazyCjs, plugins: [lightRootOnly, ...lazyCjs.plugins] }
/** The lazy parts an output really imports (esbuild resolves imports in code it then drops). */
const used = (meta) =>
  Object.values(meta.outputs).flatMap((o) =>
    o.imports.filter((i) => i.external && /^\.\/lazy-/.test(i.path)).map((i) => i.path.slice(2, -4))
  )
// `session-hook` too: the lifecycle hook runs on every prompt (src/cli/session-hook-main.ts)
const hot = await build({
  ...withLazy,
  entryPoints: {
    'approve-hook': 'src/cli/hook-main.ts',
    // the allowlisted answer from the rules' mirror, and the worker that records it (src/cli/hook-fast-main.ts)
    'approve-fast': 'src/cli/hook-fast-main.ts',
    'approve-worker': 'src/cli/approve-worker.ts',
    status: 'src/cli/status-main.ts',
    'session-hook': 'src/cli/session-hook-main.ts'
  }
})
// `patch verify` (src/cli/patch-verify-main.ts), which scripts and hooks run often: the root's
// hub-side parts are a lazy part of its own (lazy-hub-parts.cjs: settings, hubs and patches; never
// the keys, the allowlist, approvals or the contract's service)
const verify = await build({ ...lazyCjs, entryPoints: { 'patch-verify': 'src/cli/patch-verify-main.ts' } })
Object.assign(hot.metafile.inputs, verify.metafile.inputs)
Object.assign(hot.metafile.outputs, verify.metafile.outputs)
// a lazy part may import() further parts: build until none is new
for (let todo = used(hot.metafile), built = new Set(); todo.length;) {
  const names = [...new Set(todo)].filter((n) => !built.has(n))
  if (!names.length) break
  for (const n of names) built.add(n)
  const part = await build({ ...withLazy, entryPoints: Object.fromEntries(names.map((n) => [n, lazy.get(n)])) })
  Object.assign(hot.metafile.inputs, part.metafile.inputs)
  Object.assign(hot.metafile.outputs, part.metafile.outputs)
  todo = used(part.metafile)
}
if (result.metafile) {
  const merged = {
    inputs: { ...result.metafile.inputs, ...tree.metafile.inputs, ...hot.metafile.inputs },
    outputs: { ...result.metafile.outputs, ...tree.metafile.outputs, ...hot.metafile.outputs }
  }
  writeFileSync(join(outdir, 'meta.json'), JSON.stringify(merged))
}
