import { describe, expect, it } from 'vitest'
import { askRuleHolds, firstAllowing, provenanceDeclined, ruleDeclined, ruleMatches, ruleProblem, type CallToMatch } from './allow-rules'
import type { CallProvenance } from './provenance'
import { ruleWords } from './rule-words'

const mcp = (source: string, extra: Partial<CallProvenance> = {}): CallToMatch => ({
  agent: 'mac-claude',
  tool_name: 'mcp__github__create_issue',
  tool_input: { title: 'x' },
  provenance: { mcp_server: { name: 'github', source }, ...extra }
})

describe('a tool of a project or local MCP server is allowed only by a rule naming that server', () => {
  const wide = { agent_pattern: '*', tool_name: 'mcp__*', input_pattern: '*' }
  const any = { agent_pattern: 'mac-*', tool_name: '*', input_pattern: '{"title":"x"}' }
  const named = { agent_pattern: '*', tool_name: 'mcp__github__*', input_pattern: '*' }
  const exact = { agent_pattern: '*', tool_name: 'mcp__github__create_issue', input_pattern: '*' }

  it('never by a wildcard over server names', () => {
    for (const source of ['project', 'local']) {
      expect(ruleMatches(wide, mcp(source)), source).toBe(false)
      expect(ruleMatches(any, mcp(source)), source).toBe(false)
      expect(ruleMatches(named, mcp(source)), source).toBe(true)
      expect(ruleMatches(exact, mcp(source)), source).toBe(true)
    }
    expect(ruleMatches({ ...named, tool_name: 'mcp__git*__*' }, mcp('project'))).toBe(false)
  })

  it('servers the user, the app or a plugin configured are matched as before', () => {
    for (const source of ['user', 'plugin', 'sdk', 'dynamic', 'managed']) expect(ruleMatches(wide, mcp(source)), source).toBe(true)
    expect(ruleMatches(wide, { ...mcp('user'), provenance: null })).toBe(true)
  })

  it('says why, in the operator’s words', () => {
    expect(provenanceDeclined(wide, mcp('project'))).toBe(
      "the tool is MCP server github's, configured by the project's .mcp.json: only a rule naming that server (mcp__github__...) allows its tools"
    )
    expect(ruleDeclined(wide, mcp('local'))).toMatch(/configured by the folder's local settings/)
    expect(ruleDeclined(named, mcp('project'))).toBeNull()
    expect(ruleWords(wide)).toBe('tools matching mcp__*: any input; never a tool of a project or local MCP server, for any agent')
    expect(ruleWords(named)).toBe('tools matching mcp__github__*: any input, for any agent')
  })
})

describe('"ask for every call from subagent type X"', () => {
  const ask = { agent_pattern: '*', tool_name: '*', input_pattern: 'ask:subagent code-reviewer' }
  const allow = { agent_pattern: '*', tool_name: 'mcp__github__*', input_pattern: '*' }
  const from = (agent_type: string | undefined, agent_id?: string): CallToMatch =>
    mcp('user', { ...(agent_type ? { agent_type } : {}), ...(agent_id ? { agent_id } : {}) })

  it('keeps every call of that subagent type from every rule; other subagents and the main thread as before', () => {
    expect(firstAllowing([allow, ask], from('code-reviewer', 'a1'))).toBeNull()
    expect(firstAllowing([ask, allow], from('code-reviewer', 'a1'))).toBeNull()
    expect(firstAllowing([allow, ask], from('test-runner', 'a2'))).toBe(allow)
    // a session started with --agent code-reviewer is the main thread, not a subagent
    expect(firstAllowing([allow, ask], from('code-reviewer'))).toBe(allow)
    expect(firstAllowing([allow, ask], from(undefined))).toBe(allow)
    expect(firstAllowing([allow, { ...ask, input_pattern: 'ask:subagent *' }], from('test-runner', 'a2'))).toBeNull()
    // only for its agents and tools
    expect(firstAllowing([allow, { ...ask, tool_name: 'Bash' }], from('code-reviewer', 'a1'))).toBe(allow)
    expect(firstAllowing([allow, { ...ask, agent_pattern: 'linux-*' }], from('code-reviewer', 'a1'))).toBe(allow)
  })

  it('allows nothing itself, says why it holds, and must be written as ask:subagent <type>', () => {
    expect(ruleMatches(ask, { agent: 'a', tool_name: 'Bash', tool_input: { command: 'ask:subagent code-reviewer' } })).toBe(false)
    expect(askRuleHolds(ask, from('code-reviewer', 'a1'))).toBe(
      'every call from a code-reviewer subagent asks you (rule *(ask:subagent code-reviewer))'
    )
    expect(ruleProblem(ask)).toBeNull()
    expect(ruleProblem({ ...ask, input_pattern: 'ask:subagent' })).toMatch(/ask:subagent <type>/)
    expect(ruleProblem({ ...ask, input_pattern: 'ask:everything' })).toMatch(/ask:subagent <type>/)
    expect(ruleWords(ask)).toBe('any tool: every call from a code-reviewer subagent asks you (no rule allows it), for any agent')
  })
})
