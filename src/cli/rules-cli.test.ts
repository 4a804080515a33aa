import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tmpDir } from '../../test/helpers/tmp'
import { renderRules } from '../core/rules/rules'
import { runCliWith, type CliRun } from '../../test/helpers/cli'

function run(env: NodeJS.ProcessEnv, ...args: string[]): Promise<CliRun> {
  return runCliWith(tmpDir(), { env, cwd: tmpDir() }, ...args)
}

describe('muster rules', () => {
  it('prints the block; --json wraps it', async () => {
    expect(await run({}, 'rules', '--agent', 'mac-claude')).toEqual({ code: 0, out: `${await renderRules('mac-claude')}\n`, err: '' })
    expect(JSON.parse((await run({}, 'rules', '--agent', 'win-codex', '--json')).out)).toEqual({
      agent: 'win-codex',
      block: await renderRules('win-codex')
    })
    expect(await run({}, 'rules', '--agent', 'two words')).toMatchObject({
      code: 1,
      out: '',
      err: 'muster: --agent must be a single token like mac-claude (machine-harness)\n'
    })
    expect((await run({}, 'rules')).err).toBe("muster: required option '--agent <id>' not specified\n")
  })

  it('install writes the harness file under $HOME, then says it is up to date', async () => {
    const home = tmpDir()
    const first = await run({ HOME: home }, 'rules', 'install', '--agent', 'mac-claude', '--harness', 'claude')
    expect(first.code).toBe(0)
    expect(first.out.split('\n')[0]).toBe(`created: ${join(home, '.claude/CLAUDE.md')}`)
    expect(readFileSync(join(home, '.claude/CLAUDE.md'), 'utf8')).toBe(`${await renderRules('mac-claude')}\n`)
    expect((await run({ HOME: home }, 'rules', 'install', '--agent', 'mac-claude', '--harness', 'claude')).out).toBe(
      `already up to date: ${join(home, '.claude/CLAUDE.md')}\n`
    )
    const j = await run({ HOME: home }, 'rules', 'install', '--agent', 'mac-claude', '--harness', 'kate', '--json')
    expect(j.code).toBe(1)
    expect(JSON.parse(j.out)).toEqual({ error: "unknown harness 'kate': use claude, codex, opencode, gemini (or --file PATH)" })
    expect((await run({ HOME: home }, 'rules', 'install', '--harness', 'claude')).err).toBe(
      "muster: required option '--agent <id>' not specified\n"
    )
    const soul = join(tmpDir(), 'hermes', 'SOUL.md')
    expect((await run({ HOME: home }, 'rules', 'install', '--agent', 'home-hermes', '--file', soul)).out.split('\n')[0]).toBe(
      `created: ${soul}`
    )
  })
})
