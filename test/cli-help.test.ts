/**
 * `muster --help` and `muster <command> --help` print commander's help for the real command tree,
 * unchanged by how the CLI is built: test/fixtures/cli-help.txt holds every command's help as the
 * ES module build printed it (captured before the command tree became one CommonJS file), and the
 * built binary must print the same bytes for every command the tree has.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Command } from 'commander'
import { describe, expect, it } from 'vitest'
import { buildProgram } from '../src/cli/index'
import { defineSubcommands } from '../src/cli/lazy'
import { builtCli } from './helpers/built-cli'

const GOLDEN = readFileSync(join(import.meta.dirname, 'fixtures', 'cli-help.txt'), 'utf8')

/** The golden file's sections: command path (words after `muster`, without `--help`) -> help text. */
function sections(text: string): Map<string, string> {
  const out = new Map<string, string>()
  const parts = text.split(/^\$ muster (.*)--help\n/m)
  for (let i = 1; i < parts.length; i += 2) out.set(parts[i]!.trim(), parts[i + 1]!)
  return out
}

/** Every command path of the tree (words after `muster`), the root as '', deferred subcommands defined. */
function paths(cmd: Command, prefix: string[] = []): string[] {
  defineSubcommands(cmd)
  return [prefix.join(' '), ...cmd.commands.flatMap((c) => paths(c, [...prefix, c.name()]))]
}

describe('the CLI help', () => {
  const golden = sections(GOLDEN)

  it('covers every command of the tree', () => {
    const io = { stdout: () => undefined, stderr: () => undefined, env: process.env, cwd: process.cwd() }
    expect([...golden.keys()].sort()).toEqual(paths(buildProgram(io)).sort())
  })

  it('is what it was for every command, from the built binary (stdout a pipe)', () => {
    const bin = builtCli()
    for (const [path, text] of golden) {
      const r = spawnSync(process.execPath, [bin, ...(path ? path.split(' ') : []), '--help'], {
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined, CLICOLOR_FORCE: undefined },
        timeout: 60_000
      })
      expect(r.status, `muster ${path} --help: ${r.stderr}`).toBe(0)
      expect(r.stdout, `muster ${path} --help`).toBe(text)
    }
  })
})
