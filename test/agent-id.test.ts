/** The agent-id rule is MemPalace's and lives only in shared/agent-id.ts. */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { AGENT_ID_MAX, isAgentId } from '../src/shared/agent-id'

const SRC = resolve(import.meta.dirname, '..', 'src')

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) return sources(p)
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [p] : []
  })
}

describe('agent ids', () => {
  it('are one token of [A-Za-z0-9._-] (hub-logstream spec §7), at most the hub routing length', () => {
    for (const ok of ['mac-claude', 'win.codex_2', 'a', 'x'.repeat(AGENT_ID_MAX)]) expect(isAgentId(ok), ok).toBe(true)
    for (const bad of ['', 'two words', 'host:agent:project', 'é', 'a/b', 'x'.repeat(AGENT_ID_MAX + 1), 42, null])
      expect(isAgentId(bad), String(bad)).toBe(false)
  })

  it('no other source file declares its own agent-id pattern', () => {
    const own = /\[A-Za-z0-9\._:?-\][+{]/
    const offenders = sources(SRC).filter(
      (f) => !f.endsWith('agent-id.ts') && /agent/i.test(readFileSync(f, 'utf8').match(new RegExp(`.*${own.source}.*`))?.[0] ?? '')
    )
    expect(offenders).toEqual([])
  })
})
