import { describe, expect, it } from 'vitest'
import { claudeAlwaysUpdates, claudeExactRule, nativeGrantWords, opencodeAlwaysIsExact } from './native-grant'
import { ruleWords } from './rule-words'

const bash = (command: string) => ({ tool_name: 'Bash', tool_input: { command }, cwd: '/work/muse' })

describe('the grant Claude Code keeps on "always"', () => {
  it('is this exact command, for the session only, as one addRules update', () => {
    expect(claudeAlwaysUpdates(bash('npm test -- --run'))).toEqual([
      { type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'npm test -- --run' }], behavior: 'allow', destination: 'session' }
    ])
    expect(claudeExactRule(bash('  git status  '))).toEqual({ toolName: 'Bash', ruleContent: 'git status' })
  })

  it('is nothing where Claude Code’s rule would mean more than the call', () => {
    // `*` is a wildcard in Claude Code's Bash rules; parentheses and backslashes read ambiguously in rule text
    for (const c of ['ls *.ts', 'rm -rf build/*', 'echo $(id)', 'printf a\\nb', 'echo a\nrm -rf /', ''])
      expect(claudeExactRule(bash(c)), c).toBeNull()
    // MCP rules name the tool only, never its arguments
    expect(claudeExactRule({ tool_name: 'mcp__github__create_issue', tool_input: { title: 'x' } })).toBeNull()
    // a search tool: its rule would cover every search under a folder
    expect(claudeExactRule({ tool_name: 'Grep', tool_input: { pattern: 'x', path: '/work' } })).toBeNull()
    // Codex and the other shells are not Claude Code's Bash
    expect(claudeExactRule({ tool_name: 'run_shell_command', tool_input: { command: 'ls' } })).toBeNull()
  })

  it('names a file by its absolute path (//), an edit of any kind as Edit, and a fetch by its host', () => {
    expect(claudeExactRule({ tool_name: 'Write', tool_input: { file_path: 'src/a.ts', content: '' }, cwd: '/work/muse' })).toEqual({
      toolName: 'Edit',
      ruleContent: '//work/muse/src/a.ts'
    })
    expect(claudeExactRule({ tool_name: 'Read', tool_input: { file_path: '/etc/hosts' } })).toEqual({
      toolName: 'Read',
      ruleContent: '//etc/hosts'
    })
    expect(claudeExactRule({ tool_name: 'WebFetch', tool_input: { url: 'https://Docs.Example.com/a?b', prompt: 'p' } })).toEqual({
      toolName: 'WebFetch',
      ruleContent: 'domain:docs.example.com'
    })
    // a glob character, a `..`, a relative path without a folder, a Windows path: nothing
    for (const path of ['/work/a*.ts', '/work/[a].ts', '/work/../etc/passwd', 'C:\\x.txt'])
      expect(claudeExactRule({ tool_name: 'Edit', tool_input: { file_path: path, old_string: 'a', new_string: 'b' } }), path).toBeNull()
    expect(claudeExactRule({ tool_name: 'Edit', tool_input: { file_path: 'a.ts', old_string: 'a', new_string: 'b' } })).toBeNull()
    expect(claudeExactRule({ tool_name: 'WebFetch', tool_input: { url: 'file:///etc/passwd' } })).toBeNull()
  })
})

describe('OpenCode "always"', () => {
  const call = { tool_name: 'bash', tool_input: { command: 'git push origin main' } }
  it('only when what OpenCode would remember is the call itself', () => {
    expect(opencodeAlwaysIsExact(['git push origin main'], call)).toBe(true)
    expect(opencodeAlwaysIsExact(['git push *'], call)).toBe(false)
    expect(opencodeAlwaysIsExact(['git push origin main', '*'], call)).toBe(false)
    expect(opencodeAlwaysIsExact([], call)).toBe(false)
    expect(opencodeAlwaysIsExact(null, call)).toBe(false)
    expect(opencodeAlwaysIsExact(['src/a.ts'], { tool_name: 'edit', tool_input: { patterns: ['src/a.ts'] } })).toBe(true)
    expect(opencodeAlwaysIsExact(['src/b.ts'], { tool_name: 'edit', tool_input: { patterns: ['src/a.ts'] } })).toBe(false)
  })
})

describe('the grant in the operator’s words', () => {
  it('says what each harness keeps', () => {
    expect(nativeGrantWords({ harness: 'claude-code', ...bash('npm test -- --run') })).toMatch(
      /^Claude Code also keeps Bash\(npm test -- --run\) for this session only \(exactly this command\); never its permission mode or a folder/
    )
    expect(nativeGrantWords({ harness: 'claude-code', ...bash('ls *') })).toMatch(/keeps nothing/)
    expect(nativeGrantWords({ harness: 'claude-code', hook_event_name: 'PreToolUse', ...bash('ls') })).toMatch(
      /for this call only \(its PreToolUse answer keeps nothing\)/
    )
    expect(nativeGrantWords({ harness: 'codex', ...bash('ls') })).toMatch(/Codex is told “allow” and keeps nothing/)
    expect(
      nativeGrantWords({
        harness: 'opencode',
        tool_name: 'bash',
        tool_input: { command: 'git push origin main' },
        harness_always: ['git push *']
      })
    ).toMatch(/answered “once”: what it offered to keep \(git push \*\) is broader than this call/)
    expect(nativeGrantWords({ harness: 'claude-code', ...bash('git push'), presence_required: true })).toMatch(/needs your presence/)
  })

  it('reads a rule back in words', () => {
    expect(ruleWords({ agent_pattern: 'mac-claude', tool_name: 'Bash', input_pattern: 'npm test *' })).toBe(
      'Bash: `npm test` with any further arguments except shell operators and arguments that change what it does (--script-shell, -c, --call, …), for agent mac-claude'
    )
    expect(ruleWords({ agent_pattern: '*', tool_name: 'Bash', input_pattern: 'git status' })).toBe(
      'Bash: exactly `git status`, for any agent'
    )
    expect(ruleWords({ agent_pattern: 'mac-*', tool_name: 'Edit', input_pattern: '//work/muse/src/a.ts' })).toBe(
      'Edit: the file /work/muse/src/a.ts, for agents matching mac-*'
    )
    expect(ruleWords({ agent_pattern: 'a', tool_name: 'Read', input_pattern: '/src/**' })).toBe(
      'Read: files matching /src/** (from the project folder), for agent a'
    )
    expect(ruleWords({ agent_pattern: 'a', tool_name: 'WebFetch', input_pattern: 'domain:example.com' })).toBe(
      'WebFetch: the host example.com only, for agent a'
    )
    expect(ruleWords({ agent_pattern: 'a', tool_name: 'mcp__x__y', input_pattern: '{"q":"1"}' })).toBe(
      'mcp__x__y: exactly the arguments {"q":"1"}, for agent a'
    )
    expect(ruleWords({ agent_pattern: 'a', tool_name: 'Bash', input_pattern: 'npm\\*' })).toBe('Bash: exactly `npm*`, for agent a')
  })
})
