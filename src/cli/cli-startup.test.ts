/**
 * The CLI's start-up budget (`muster --help` within 1.5x of `node -e 0`) holds only while the
 * command tree stays light: one CommonJS file of command definitions and commander, and the one
 * module it shares with the actions (`cli-output.cjs`), nothing else; and `muster status`
 * stays within 2x of grep only while its action never loads the contract's zod schemas, the
 * service, the hub or the watcher. This builds the CLI as `npm run build:cli` does and walks
 * esbuild's import graph.
 */
import { spawnSync } from 'node:child_process'
import { isBuiltin } from 'node:module'
import { readdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { builtCli, builtCliMeta, inputsOf as inputsIn, staticClosure as closureIn, type CliMeta } from '../../test/helpers/built-cli'

const ROOT = resolve(import.meta.dirname, '..', '..')

let meta: CliMeta
let entry: string

beforeAll(() => {
  meta = builtCliMeta()
  entry = Object.keys(meta.outputs).find((o) => meta.outputs[o]!.entryPoint === 'src/cli/main.ts')!
  expect(entry).toMatch(/muster\.cjs$/)
})

function staticClosure(from: string): { outputs: Set<string>; externals: Set<string> } {
  return closureIn(meta, from)
}

describe('CLI start-up', () => {
  it('the entry statically loads only node built-ins and light CLI modules (no service, zod, SQLite, hub)', () => {
    const { outputs, externals } = staticClosure(entry)
    expect([...externals].filter((e) => !isBuiltin(e))).toEqual(['./cli-output.cjs'])
    outputs.add(outputOf('cli-output.cjs'))
    expect(meta.outputs[outputOf('cli-output.cjs')]!.imports.filter((i) => !isBuiltin(i.path))).toEqual([])
    // commander's child_process is required only inside the function that spawns (see scripts/build-cli.mjs
    // and the run below: esbuild's graph of a CommonJS file does not say where a require is)
    expect(inputsOf(entry)).toContain('muster:deferred-child-process')
    const inputs = [...outputs].flatMap((o) => inputsOf(o)).filter((i) => !i.startsWith('node_modules/commander/'))
    const heavy = inputs.filter(
      (i) =>
        !/^src\/cli\/(index|main|lazy|output|direct-write|usage|help-output)\.ts$|^src\/shared\/(visible-text|relative-time)\.ts$|^src\/cli\/commands\/[\w-]+\.ts$|^src\/cli\/session-hook\/args\.ts$|^src\/core\/version\.ts$|^muster:deferred-child-process$|^builtin:node:\w+$/.test(
          i
        )
    )
    expect(heavy).toEqual([])
  })

  it('muster --help loads no ES module loader, child_process, net or stream (stdout a file, then a pipe)', () => {
    const probe = `process.on('exit', () => require('fs').writeSync(3, JSON.stringify(process.moduleLoadList)))
process.argv.splice(1, 1, ${JSON.stringify(builtCli())}, '--help')
require(process.argv[1])`
    for (const stdout of ['ignore', 'pipe'] as const) {
      const r = spawnSync(process.execPath, ['-e', probe, 'x'], { stdio: ['ignore', stdout, 'pipe', 'pipe'], timeout: 60_000 })
      expect(r.status, String(r.stderr)).toBe(0)
      const loaded = JSON.parse(String(r.output[3])) as string[]
      expect(
        loaded.filter((m) => /^NativeModule (child_process|net|stream|internal\/modules\/esm\/(module_job|translators))$/.test(m)),
        stdout
      ).toEqual([])
    }
  })

  it('muster status loads no zod, service, hub or watcher', () => {
    const chunk = Object.keys(meta.outputs).find((o) => 'src/cli/actions/status.ts' in meta.outputs[o]!.inputs)!
    const { outputs, externals } = staticClosure(chunk)
    // `bindings` is better-sqlite3's fallback addon finder, unused: core/sqlite.ts gives the addon's path
    expect([...externals].filter((e) => !isBuiltin(e)).sort()).toEqual(['./cli-output.cjs', 'bindings'])
    const inputs = [...outputs].flatMap((o) => inputsOf(o))
    expect(inputs).toContain('node_modules/better-sqlite3/lib/database.js')
    expect(
      inputs.filter((i) =>
        /^src\/shared\/contract\/|^src\/shared\/api\.ts$|^src\/core\/service|^src\/core\/hub\/|^src\/core\/fleet\/watcher|node_modules\/zod\//.test(
          i
        )
      )
    ).toEqual([])
    expect(inputs).toContain('src/core/fleet/fleet-status.ts')
  })

  it("the status entry is one CommonJS file without commander, the parser, the parse cache's reads, the service or the hub", () => {
    const out = Object.keys(meta.outputs).find((o) => meta.outputs[o]!.entryPoint === 'src/cli/status-main.ts')!
    expect(out).toMatch(/status\.cjs$/)
    expect(meta.outputs[out]!.imports.filter((i) => !i.external)).toEqual([])
    const inputs = Object.keys(meta.outputs[out]!.inputs)
    const heavy =
      /node_modules\/(commander|zod)\/|^src\/core\/muse\/(role-digest|parse-role|fleet-scan|digest-pool)\.ts$|^src\/core\/fleet\/(fleet-status|watcher)\.ts$|^src\/core\/(service|hub\/)|^src\/shared\/contract\//
    expect(inputs.filter((i) => heavy.test(i))).toEqual([])
    expect(inputs).toContain('src/cli/status-cards.ts')
  })

  it("patch verify's fast entry and the root's parts it requires carry no zod, contract or service", () => {
    const out = Object.keys(meta.outputs).find((o) => meta.outputs[o]!.entryPoint === 'src/cli/patch-verify-main.ts')!
    expect(out).toMatch(/patch-verify\.cjs$/)
    const parts = meta.outputs[out]!.imports.filter((i) => i.external && i.path.startsWith('./lazy-')).map((i) => i.path)
    expect(parts).toContain('./lazy-hub-parts.cjs')
    const files = [out, ...parts.map((p) => Object.keys(meta.outputs).find((o) => o.endsWith(p.slice(1)))!)]
    const inputs = files.flatMap((o) => inputsOf(o))
    expect(inputs).toContain('src/core/patches/verify.ts')
    // the part verify asks for (patches) holds no keys, allowlist or approvals (those are ./parts.ts's)
    const hubParts = inputsOf(files[1 + parts.indexOf('./lazy-hub-parts.cjs')]!)
    expect(hubParts).toContain('src/core/root/hub-parts.ts')
    expect(hubParts.filter((i) => /^src\/core\/(approvals\/|root\/parts\.ts$)/.test(i))).toEqual([])
    for (const heavy of [
      /node_modules\/zod\//,
      /node_modules\/commander\//,
      /src\/shared\/api\.ts$/,
      /src\/shared\/contract\/(hub|fleet|patches)\.ts$/,
      /src\/core\/service\.ts$/
    ])
      expect(
        inputs.filter((i) => heavy.test(i)),
        String(heavy)
      ).toEqual([])
  })

  it('every action module is reached only through a dynamic import', () => {
    const { outputs } = staticClosure(entry)
    const loaded = new Set([...outputs].flatMap((o) => inputsOf(o)))
    const actions = readdirSync(join(ROOT, 'src', 'cli', 'actions')).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    expect(actions.length).toBeGreaterThan(10)
    for (const a of actions) expect(loaded.has(`src/cli/actions/${a}`), a).toBe(false)
    // each action is an ES module entry of its own (action-<name>.mjs), imported when its command runs
    const dynamic = meta.outputs[entry]!.imports.filter((i) => i.kind === 'dynamic-import')
    expect(dynamic.every((d) => d.external && /^\.\/action-[\w-]+\.mjs$/.test(d.path))).toBe(true)
    expect(dynamic.length).toBeGreaterThanOrEqual(actions.length - 1) // hub-cli.ts is a helper shared by actions
    for (const a of actions.filter((x) => x !== 'hub-cli.ts')) {
      const out = `action-${a.replace(/\.ts$/, '')}.mjs`
      expect(dynamic.some((d) => d.path === `./${out}`)).toBe(true)
      expect(meta.outputs[outputOf(out)]!.entryPoint).toBe(`src/cli/actions/${a}`)
    }
  })

  it("the actions use the command tree's own cli-output.cjs (one CliError class), not a copy", () => {
    const copies = Object.keys(meta.outputs).filter((o) => /\.mjs$/.test(o) && 'src/cli/output.ts' in meta.outputs[o]!.inputs)
    expect(copies).toEqual([])
    expect(inputsOf(outputOf('cli-output.cjs'))).toContain('src/cli/output.ts')
    expect(inputsOf(entry)).not.toContain('src/cli/output.ts')
  })
})

/** The output of the build named `file` (e.g. `cli-output.cjs`). */
function outputOf(file: string): string {
  const o = Object.keys(meta.outputs).find((k) => k.endsWith(`/${file}`))
  expect(o, file).toBeDefined()
  return o!
}

/** The bundle inputs of output `o`, with node_modules reached through a symlink (a worktree's) named as in a clone. */
function inputsOf(o: string): string[] {
  return inputsIn(meta, o)
}
