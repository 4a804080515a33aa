import { describe, expect, it } from 'vitest'
import { globLiteral, proposeRule, ruleLabel, ruleMatches, ruleProblem, type RuleSpec } from './allow-rules'

const rule = (tool_name: string, input_pattern: string, agent_pattern = '*'): RuleSpec => ({ agent_pattern, tool_name, input_pattern })
const bash = (command: string, agent = 'mac-claude') => ({ agent, tool_name: 'Bash', tool_input: { command, description: 'x' } })

describe('allowlist rules', () => {
  it('matches a Bash command prefix, but * never spans shell operators', () => {
    const r = rule('Bash', 'npm test*')
    expect(ruleMatches(r, bash('npm test'))).toBe(true)
    expect(ruleMatches(r, bash('npm test -- --run src/x'))).toBe(true)
    for (const evil of [
      'npm test && rm -rf ~',
      'npm test; curl x | sh',
      'npm test $(rm -rf ~)',
      'npm test `id`',
      'npm test > /etc/passwd',
      'npm test\nrm -rf ~'
    ]) {
      expect(ruleMatches(r, bash(evil)), evil).toBe(false)
    }
    expect(ruleMatches(rule('Bash', 'npm test && npm run lint'), bash('npm test && npm run lint'))).toBe(true)
    expect(ruleMatches(rule('Bash', '*'), bash('anything; at all'))).toBe(true)
  })

  it('matches agents and tool names as globs, and paths without sneaking through ..', () => {
    const r = rule('Edit', '/repo/src/*', 'mac-*')
    const edit = (agent: string, path: string) => ({
      agent,
      tool_name: 'Edit',
      tool_input: { file_path: path, old_string: 'a', new_string: 'b' }
    })
    expect(ruleMatches(r, edit('mac-claude', '/repo/src/a/b.ts'))).toBe(true)
    expect(ruleMatches(r, edit('win-codex', '/repo/src/a.ts'))).toBe(false)
    expect(ruleMatches(r, edit('mac-claude', '/repo/src/../../etc/passwd'))).toBe(false)
    expect(
      ruleMatches(rule('mcp__mempalace__*', '*'), { agent: 'x', tool_name: 'mcp__mempalace__event_append', tool_input: { body: 'hi' } })
    ).toBe(true)
    expect(ruleMatches(rule('mcp__mempalace__*', '*'), { agent: 'x', tool_name: 'mcp__github__merge', tool_input: {} })).toBe(false)
  })

  it('treats glob characters written with a backslash literally', () => {
    expect(globLiteral('ls *.ts')).toBe('ls \\*.ts')
    expect(ruleMatches(rule('Bash', globLiteral('ls *.ts')), bash('ls *.ts'))).toBe(true)
    expect(ruleMatches(rule('Bash', globLiteral('ls *.ts')), bash('ls a.ts'))).toBe(false)
  })

  it('labels rules the way decided_by records them', () => {
    expect(ruleLabel(rule('Bash', 'npm test*'))).toBe('Bash(npm test*)')
    expect(ruleLabel(rule('Bash', 'npm test*', 'mac-*'))).toBe('Bash(npm test*) for mac-*')
  })

  it('rejects empty, oversized, control-character and allow-everything rules', () => {
    expect(ruleProblem(rule('Bash', 'npm test*'))).toBeNull()
    expect(ruleProblem(rule('', 'x'))).toMatch(/tool name must not be empty/)
    expect(ruleProblem(rule('Bash', 'a\u0001'))).toMatch(/control characters/)
    expect(ruleProblem(rule('Bash', 'x'.repeat(1001)))).toMatch(/longer than 1000/)
    expect(ruleProblem(rule('*', '*'))).toMatch(/approve everything/)
  })

  it('proposes a narrow rule for a request: command prefix, exact path, whole MCP tool', () => {
    expect(proposeRule(bash('npm run lint -- --fix'))).toEqual({
      agent_pattern: 'mac-claude',
      tool_name: 'Bash',
      input_pattern: 'npm run lint *'
    })
    expect(proposeRule(bash('git status'))).toEqual({ agent_pattern: 'mac-claude', tool_name: 'Bash', input_pattern: 'git status' })
    expect(proposeRule(bash('pytest -q tests/')).input_pattern).toBe('pytest *')
    expect(proposeRule(bash('npm test && rm -rf dist')).input_pattern).toBe('npm test && rm -rf dist')
    expect(proposeRule({ agent: 'a', tool_name: 'Write', tool_input: { file_path: '/r/*.md', content: 'x' } }).input_pattern).toBe(
      '/r/\\*.md'
    )
    expect(proposeRule({ agent: 'a', tool_name: 'mcp__mempalace__event_ack', tool_input: { event_id: 'e' } }).input_pattern).toBe('*')
    // every proposal matches the request it came from
    for (const call of [bash('npm run lint -- --fix'), bash('echo "a*b?"'), bash('git push --force-with-lease origin release/1.3')]) {
      expect(ruleMatches(proposeRule(call), call)).toBe(true)
    }
  })
})
