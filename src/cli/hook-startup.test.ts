/**
 * `muster approve-hook` starts on every tool call of every agent: its entry chunk must stay free
 * of commander, the service, the contract's zod schemas and the folds it never uses. This builds
 * the CLI as `npm run build:cli` does and walks esbuild's static import graph from that entry;
 * the slow path through commander is checked to give the same answer.
 */
import { isBuiltin } from 'node:module'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { builtCliMeta, inputsOf as inputsIn, staticClosure, type CliMeta } from '../../test/helpers/built-cli'
import { tmpDir } from '../../test/helpers/tmp'
import { runCli } from './index'

let meta: CliMeta

beforeAll(() => {
  meta = builtCliMeta()
})

describe('approve-hook start-up', () => {
  it('its own entry statically loads only the hook, one local hub (append and follow) and SQLite', () => {
    const entry = Object.keys(meta.outputs).find((o) => meta.outputs[o]!.entryPoint === 'src/cli/hook-main.ts')!
    // CommonJS, one file: a hook call never starts the ES module loader
    expect(entry).toMatch(/approve-hook\.cjs$/)
    const { outputs: seen, externals } = staticClosure(meta, entry)
    // better-sqlite3 is bundled; `bindings`, its fallback addon finder, stays outside unused (core/sqlite.ts gives the addon's path)
    // its lazy parts (`./lazy-*.cjs`, required on first use) are files of their own: see the next test
    expect([...externals].filter((e) => !isBuiltin(e) && !e.startsWith('./lazy-'))).toEqual(['bindings'])
    const inputs = [...seen].flatMap((o) => inputsOf(o))
    expect(inputs).toContain('node_modules/better-sqlite3/lib/database.js')
    for (const heavy of [
      /node_modules\/commander/,
      /src\/shared\/api\.ts$/,
      /src\/shared\/contract\/(hub|fleet|muse|approvals)\.ts$/,
      /src\/core\/service/,
      /src\/core\/hub\/hub-service/,
      /src\/core\/hub\/(overview|tasks|thread|presence|inbox|wait)\.ts$/,
      /src\/core\/hub\/local-hub\.ts$/,
      /src\/renderer\//,
      /src\/cli\/(index|actions)/,
      /src\/cli\/commands\/(?!hook-flags)/
    ]) {
      expect(
        inputs.filter((i) => heavy.test(i)),
        String(heavy)
      ).toEqual([])
    }
    expect(inputs).toContain('src/core/hub/local/local-hub-base.ts')
  })

  it('the allowlisted answer (approve-fast.cjs) loads no SQLite, hub, service or commander: only Node built-ins it needs, and none to start a process', () => {
    const entry = Object.keys(meta.outputs).find((o) => meta.outputs[o]!.entryPoint === 'src/cli/hook-fast-main.ts')!
    expect(entry).toMatch(/approve-fast\.cjs$/)
    const out = meta.outputs[entry]!
    // one file: nothing it requires is Muster's own or a package
    expect(out.imports.filter((i) => i.kind !== 'dynamic-import' && !isBuiltin(i.path))).toEqual([])
    // the record is spooled, not handed to a process started here (core/approvals/hook-jobs.ts)
    expect(new Set(out.imports.map((i) => i.path.replace(/^node:/, '')))).toEqual(new Set(['fs', 'os', 'path', 'crypto']))
    const inputs = inputsOf(entry)
    for (const absent of [
      /node_modules\//,
      /src\/core\/sqlite\.ts$/,
      /src\/core\/hub\//,
      /src\/core\/root\//,
      /src\/core\/approvals\/(approve-hook|approval-events|allowlist-store)\.ts$/,
      /src\/shared\/contract\/(hub|fleet|muse|approvals)\.ts$/,
      /src\/shared\/visible-text\.ts$/,
      /src\/cli\/(index|output|actions)/
    ])
      expect(
        inputs.filter((i) => absent.test(i)),
        String(absent)
      ).toEqual([])
    expect(inputs).toContain('src/core/approvals/allowlist-mirror.ts')
  })

  it('reaches a remote hub through lazy parts of its own, each a file built beside it', () => {
    const entry = Object.keys(meta.outputs).find((o) => meta.outputs[o]!.entryPoint === 'src/cli/hook-main.ts')!
    const lazy = meta.outputs[entry]!.imports.filter((i) => i.external && i.path.startsWith('./lazy-')).map((i) => i.path)
    expect(lazy).toEqual(expect.arrayContaining(['./lazy-remote-hub.cjs', './lazy-remote-url.cjs']))
    for (const part of lazy)
      expect(
        Object.keys(meta.outputs).some((o) => o.endsWith(part.slice(1))),
        part
      ).toBe(true)
    expect(Object.keys(meta.outputs[entry]!.inputs).filter((i) => i.includes('/remote/remote-hub'))).toEqual([])
  })

  it('through commander (global options before the command) it answers the same', async () => {
    let out = ''
    let err = ''
    const io = {
      stdout: (t: string) => (out += t),
      stderr: (t: string) => (err += t),
      env: {},
      cwd: tmpDir(),
      readStdin: async () =>
        Buffer.from(JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } }))
    }
    const missing = join(tmpDir(), 'none')
    const code = await runCli(['--home', tmpDir(), '--palace', missing, 'approve-hook', '--agent', 'mac-claude'], io)
    expect(code).toBe(0)
    expect(JSON.parse(out).hookSpecificOutput.permissionDecision).toBe('ask')
    expect(err).toMatch(/^muster approve-hook: cannot ask the operator \(no hub at /)
    out = ''
    expect(await runCli(['approve-hook', '--home', tmpDir(), '--agent', 'x'], { ...io, readStdin: async () => Buffer.from('{') })).toBe(2)
    expect(out).toBe('')
  })
})

/** The bundle inputs of output `o`, with node_modules reached through a symlink (a worktree's) named as in a clone. */
function inputsOf(o: string): string[] {
  return inputsIn(meta, o)
}
