/**
 * The real `muster` binary for process tests: `bin/muster.cjs` (and its older `bin/muster.mjs`) and the CLI bundle built by
 * `scripts/build-cli.mjs`, laid out as in the package (`bin/`, `out/cli/`), built once per vitest run by
 * test/setup/built-cli.ts. Tests only run it and read it; none changes it.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { inject } from 'vitest'

/** The run's built CLI: the path of its `bin/muster.cjs`. */
export function builtCli(): string {
  return join(inject('builtCliDir'), 'bin', 'muster.cjs')
}

/** Runs the built `muster` with `args` and `--home home` in its own process (no background refresh), and waits. */
export function runBuiltCli(home: string, ...args: string[]): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [builtCli(), ...args, '--home', home], {
    encoding: 'utf8',
    env: { ...process.env, MUSTER_NO_BACKGROUND: '1' },
    timeout: 60_000
  })
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr }
}

/** The run's CLI bundle folder (`out/cli`: `muster.cjs`, the hook entry, the chunks). */
export function builtCliOut(): string {
  return join(inject('builtCliDir'), 'out', 'cli')
}

/** esbuild's import graph of the run's CLI build (the parts the start-up tests read). */
export interface CliMeta {
  outputs: Record<
    string,
    { imports: { path: string; kind: string; external?: boolean }[]; inputs: Record<string, unknown>; entryPoint?: string }
  >
}

/**
 * The build's metafile, with package inputs named `node_modules/<pkg>/...` wherever node_modules
 * really is (a worktree whose node_modules is a link names them by their real path, ../../main/node_modules/x).
 */
export function builtCliMeta(): CliMeta {
  const meta = JSON.parse(readFileSync(join(builtCliOut(), 'meta.json'), 'utf8')) as CliMeta
  for (const o of Object.values(meta.outputs))
    o.inputs = Object.fromEntries(
      Object.entries(o.inputs).map(([k, v]) => [k.replace(/^(?:\.\.\/)+(?:[^/]+\/)*?node_modules\//, 'node_modules/'), v])
    )
  return meta
}

/** The outputs and externals the output `from` reaches by static imports only (what loads with it). */
export function staticClosure(meta: CliMeta, from: string): { outputs: Set<string>; externals: Set<string> } {
  const outputs = new Set<string>()
  const externals = new Set<string>()
  const walk = (o: string): void => {
    if (outputs.has(o)) return
    outputs.add(o)
    for (const i of meta.outputs[o]!.imports) {
      if (i.kind !== 'import-statement' && i.kind !== 'require-call') continue
      if (i.external) externals.add(i.path)
      else walk(i.path)
    }
  }
  walk(from)
  return { outputs, externals }
}

/** The source files bundled into the output `o` (packages as `node_modules/<pkg>/...`). */
export function inputsOf(meta: CliMeta, o: string): string[] {
  return Object.keys(meta.outputs[o]!.inputs)
}
