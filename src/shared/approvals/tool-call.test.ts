import { describe, expect, it } from 'vitest'
import { callSignature, matchSubject, readToolCall, summarizeToolCall } from './tool-call'

describe('reading tool calls', () => {
  it('reads Claude Code and Codex shell calls', () => {
    const c = readToolCall('Bash', { command: 'git push origin main', description: 'Push' })
    expect(c).toEqual({ kind: 'bash', tool: 'Bash', command: 'git push origin main', description: 'Push' })
    expect(summarizeToolCall(c)).toBe('Bash: git push origin main')
    const codex = readToolCall('Bash', { command: ['bash', '-lc', 'cargo test -p core'] })
    expect(codex.kind === 'bash' && codex.command).toBe('cargo test -p core')
    expect(matchSubject(codex)).toEqual({ text: 'cargo test -p core', kind: 'command' })
  })

  it('reads Edit, MultiEdit and Write with their paths', () => {
    const e = readToolCall('Edit', { file_path: '/r/.env', old_string: 'A=1', new_string: 'A=2' })
    expect(summarizeToolCall(e)).toBe('Edit: /r/.env')
    const m = readToolCall('MultiEdit', {
      file_path: '/r/a.ts',
      edits: [
        { old_string: 'a', new_string: 'b' },
        { old_string: 'c', new_string: 'd', replace_all: true }
      ]
    })
    expect(m.kind === 'edit' && m.edits.map((x) => x.replace_all)).toEqual([false, true])
    expect(summarizeToolCall(m)).toBe('MultiEdit: /r/a.ts (2 edits)')
    expect(summarizeToolCall(readToolCall('Write', { file_path: '/r/n.md', content: 'a\nb\n' }))).toBe('Write: /r/n.md (3 lines)')
  })

  it('reads MCP calls as server › tool with sorted arguments; unknown tools as other', () => {
    const c = readToolCall('mcp__mempalace__mempalace_event_ack', { status: 'claimed', event_id: 'evt_1' })
    expect(c.kind).toBe('mcp')
    expect(summarizeToolCall(c)).toBe('mempalace › mempalace_event_ack {"event_id":"evt_1","status":"claimed"}')
    expect(readToolCall('Bash', { nope: 1 }).kind).toBe('other')
    expect(callSignature('X', { b: 1, a: { d: 2, c: 3 } })).toBe(callSignature('X', { a: { c: 3, d: 2 }, b: 1 }))
  })
})
