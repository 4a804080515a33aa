/**
 * Contract tests of every harness adapter: each harness's payloads as its published docs and
 * source give them, run through the one core wait (`runApproveHook`) on a real hub file, decided
 * like the operator does, and the answer checked against the harness's documented output.
 * Sources: Claude Code 2.1.332's hook schemas (PermissionRequest `permission_suggestions`,
 * `decision.updatedPermissions`); Codex 0.171 (`codex-rs/hooks`: PreToolUse accepts only deny);
 * Gemini CLI docs/hooks/reference.md (BeforeTool, `decision`/`reason`); GitHub Copilot CLI hooks
 * reference (camelCase `toolName`/`toolArgs`, `permissionRequest` `behavior`, `preToolUse`
 * `permissionDecision`); Cursor hooks (`beforeShellExecution`, `permission`/`user_message`/
 * `agent_message`); OpenCode 1.18 (`permission.asked`, reply once/always/reject).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { closeAfterEach, openTestHub } from '../../../../test/helpers/hook-hub'
import { EventType } from '../../../shared/contract/hub-vocabulary'
import { decisionAppend } from '../approval-events'
import { runApproveHook, type HookContext, type HookOptions } from '../approve-hook'
import { testKeys } from '../../../../test/helpers/operator-key'

const operator = testKeys()

const closers = closeAfterEach()

function setup() {
  const { hub } = openTestHub(closers)
  const ctx: HookContext = { hub, rules: null, trust: operator.trust, operator: 'desk', projectFor: () => 'muse', warn: () => {} }
  return { hub, ctx }
}

/** Runs the hook on `payload`, decides its request as the operator, returns the answer and the request. */
async function decided(payload: unknown, opts: Partial<HookOptions>, decision: 'allow' | 'deny', extra: { always?: boolean } = {}) {
  const { hub, ctx } = setup()
  const run = runApproveHook(JSON.stringify(payload), { agent: 'a1', timeoutMs: 20_000, ...opts }, ctx)
  let req
  for (;;) {
    req = (await hub.list({ type: EventType.approvalRequest, order: 'desc', limit: 1 })).events[0]
    if (req) break
    await new Promise((r) => setTimeout(r, 10))
  }
  await hub.append(
    decisionAppend(
      req,
      { decision, reason: decision === 'deny' ? 'not here' : '', decided_by: 'desk', from_agent: 'desk', ...extra },
      { signer: operator.signer }
    )
  )
  const out = await run
  return { out, req, json: out.stdout.trim() ? JSON.parse(out.stdout) : null }
}

const claudePermission = {
  session_id: 's1',
  transcript_path: '/h/.claude/projects/p/s1.jsonl',
  cwd: '/work/muse',
  permission_mode: 'default',
  hook_event_name: 'PermissionRequest',
  tool_name: 'Bash',
  tool_input: { command: 'npm publish', description: 'publish' },
  permission_suggestions: [
    { type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'npm publish:*' }], behavior: 'allow', destination: 'localSettings' }
  ]
}

const codexPre = {
  session_id: 'c1',
  turn_id: 't1',
  transcript_path: null,
  cwd: '/work/dya',
  hook_event_name: 'PreToolUse',
  model: 'gpt-5.1-codex',
  permission_mode: 'bypassPermissions',
  tool_name: 'Bash',
  tool_input: { command: 'rm -rf build' },
  tool_use_id: 'call_1'
}

describe('harness adapters (contract tests on the published payloads)', () => {
  it('Claude Code PermissionRequest: "approve and always allow" adds this exact call for the session, never its own suggestions', async () => {
    const { out, json, req } = await decided(claudePermission, {}, 'allow', { always: true })
    expect(out.exitCode).toBe(0)
    expect(json).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: {
          behavior: 'allow',
          updatedPermissions: [
            { type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'npm publish' }], behavior: 'allow', destination: 'session' }
          ]
        }
      }
    })
    expect(req.metadata).toMatchObject({ harness: 'claude-code', hook_event_name: 'PermissionRequest' })
    const plain = await decided(claudePermission, {}, 'allow')
    expect(plain.json.hookSpecificOutput.decision).toEqual({ behavior: 'allow' })
  })

  it('Claude Code: its setMode and addDirectories suggestions never reach the answer (issue 32 point 1)', async () => {
    // what Claude Code 2.1.332 offered for `touch marker-a` inside the project, and for a write outside it
    const touch = {
      ...claudePermission,
      tool_input: { command: 'touch marker-a' },
      permission_suggestions: [
        { type: 'addDirectories', directories: ['/work/muse'], destination: 'session' },
        { type: 'setMode', mode: 'acceptEdits', destination: 'session' }
      ]
    }
    const { json } = await decided(touch, {}, 'allow', { always: true })
    expect(json.hookSpecificOutput.decision.updatedPermissions).toEqual([
      { type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'touch marker-a' }], behavior: 'allow', destination: 'session' }
    ])
    expect(JSON.stringify(json)).not.toMatch(/setMode|addDirectories|acceptEdits|localSettings/)
    const outside = {
      ...touch,
      tool_input: { command: 'date >> /tmp/outside.log' },
      permission_suggestions: [{ type: 'addDirectories', directories: ['/tmp'], destination: 'session' }]
    }
    expect((await decided(outside, {}, 'allow', { always: true })).json.hookSpecificOutput.decision.updatedPermissions).toEqual([
      {
        type: 'addRules',
        rules: [{ toolName: 'Bash', ruleContent: 'date >> /tmp/outside.log' }],
        behavior: 'allow',
        destination: 'session'
      }
    ])
    // an MCP tool: Claude Code's rule would name the tool without its arguments, so nothing but the allow
    const mcp = { ...claudePermission, tool_name: 'mcp__github__create_issue', tool_input: { title: 'x' } }
    expect((await decided(mcp, {}, 'allow', { always: true })).json.hookSpecificOutput.decision).toEqual({ behavior: 'allow' })
  })

  it('Codex: a payload with permission_mode is still Codex (detected on the whole payload); PreToolUse is deny-only', async () => {
    const denied = await decided(codexPre, {}, 'deny')
    expect(denied.req.metadata.harness).toBe('codex')
    expect(denied.json).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'denied by desk in Muster: not here'
      }
    })
    // an allow prints nothing (Codex rejects permissionDecision "allow" there), and Codex goes on
    const allowed = await decided(codexPre, {}, 'allow', { always: true })
    expect(allowed.out).toMatchObject({ stdout: '', exitCode: 0, verdict: 'allow' })
    // PermissionRequest: allow / deny, never updatedPermissions (Codex fails such a hook closed)
    const pr = await decided({ ...codexPre, hook_event_name: 'PermissionRequest' }, {}, 'allow', { always: true })
    expect(pr.json).toEqual({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } })
  })

  it('Gemini CLI BeforeTool: decision and reason at the top level', async () => {
    const payload = {
      session_id: 'g1',
      transcript_path: '/h/.gemini/tmp/x/chats/session.json',
      cwd: '/work/atlas',
      hook_event_name: 'BeforeTool',
      timestamp: '2026-12-04T17:00:00.000Z',
      tool_name: 'run_shell_command',
      tool_input: { command: 'make deploy', description: 'deploy' }
    }
    const denied = await decided(payload, {}, 'deny')
    expect(denied.json).toEqual({ decision: 'deny', reason: 'denied by desk in Muster: not here' })
    expect(denied.req).toMatchObject({
      body: expect.stringContaining('make deploy'),
      metadata: { harness: 'gemini', tool_name: 'run_shell_command' }
    })
    expect((await decided(payload, {}, 'allow')).json).toEqual({ decision: 'allow', reason: 'approved by desk in Muster' })
  })

  it('Copilot CLI: camelCase payloads, the event from the installed command, top-level answers', async () => {
    const payload = { sessionId: 'k1', timestamp: 1764867600000, cwd: '/work/muse', toolName: 'bash', toolArgs: '{"command":"git push"}' }
    const denied = await decided(payload, { event: 'permissionRequest' }, 'deny')
    expect(denied.req.metadata).toMatchObject({ harness: 'copilot', tool_input: { command: 'git push' } })
    expect(denied.json).toEqual({ behavior: 'deny', message: 'denied by desk in Muster: not here' })
    expect((await decided(payload, { event: 'permissionRequest' }, 'allow')).json).toEqual({ behavior: 'allow' })
    const pre = await decided(payload, { event: 'preToolUse' }, 'deny')
    expect(pre.json).toEqual({ permissionDecision: 'deny', permissionDecisionReason: 'denied by desk in Muster: not here' })
  })

  it('Copilot CLI 1.0.102 as it really sends them: toolInput and hookName (permissionRequest), toolArgs object (preToolUse)', async () => {
    const fixture = (name: string) =>
      JSON.parse(readFileSync(join(__dirname, '../../../../test/fixtures/harness-payloads/copilot', name), 'utf8')) as Record<
        string,
        unknown
      >
    const pr = fixture('1.0.102-permissionRequest.json')
    const command = (pr.toolInput as { command: string }).command
    // no --event: the payload names its hook
    const denied = await decided(pr, {}, 'deny')
    expect(denied.req.metadata).toMatchObject({
      harness: 'copilot',
      hook_event_name: 'permissionRequest',
      tool_name: 'bash',
      tool_input: { command }
    })
    expect(denied.req.body).toBe(`bash: ${command}`)
    expect(denied.json).toEqual({ behavior: 'deny', message: 'denied by desk in Muster: not here' })
    const pre = fixture('1.0.102-preToolUse.json')
    const allowed = await decided(pre, { event: 'preToolUse' }, 'allow')
    expect(allowed.req.metadata).toMatchObject({ hook_event_name: 'preToolUse', tool_input: { command } })
    expect(allowed.json).toEqual({ permissionDecision: 'allow', permissionDecisionReason: 'approved by desk in Muster' })
  })

  it('Copilot CLI: arguments missing or unreadable are blocked in Copilot’s own deny, nothing recorded', async () => {
    const { hub, ctx } = setup()
    const base = { hookName: 'permissionRequest', sessionId: 'k1', timestamp: 1, cwd: '/w', toolName: 'bash' }
    for (const payload of [base, { ...base, toolArgs: 'rm -rf ~' }, { ...base, toolInput: ['x'] }]) {
      const out = await runApproveHook(JSON.stringify(payload), { agent: 'a1', event: 'permissionRequest' }, ctx)
      expect(out.verdict).toBeNull()
      expect(JSON.parse(out.stdout)).toMatchObject({ behavior: 'deny', message: expect.stringMatching(/blocked and nothing was recorded/) })
    }
    expect((await hub.list({ limit: 5 })).events).toEqual([])
  })

  it('no hub to ask: deny where nobody could answer a prompt (codex exec, Gemini), else the harness asks', async () => {
    const ctx: HookContext = {
      hub: { unreachable: 'no hub at /nowhere' },
      rules: null,
      trust: operator.trust,
      operator: 'desk',
      projectFor: () => null,
      warn: () => {}
    }
    const run = (payload: unknown) => runApproveHook(JSON.stringify(payload), { agent: 'a1' }, ctx)
    const exec = await run(codexPre)
    expect(exec.verdict).toBe('deny')
    expect(JSON.parse(exec.stdout).hookSpecificOutput.permissionDecisionReason).toMatch(
      /^Muster could not reach the hub \(no hub at \/nowhere\), so nobody could approve this call: it is denied\. Fix: `muster gates`/
    )
    const gem = await run({
      session_id: 'g',
      cwd: '/w',
      hook_event_name: 'BeforeTool',
      tool_name: 'run_shell_command',
      tool_input: { command: 'ls' }
    })
    expect(JSON.parse(gem.stdout)).toMatchObject({ decision: 'deny', reason: expect.stringMatching(/^Muster could not reach the hub/) })
    // a person is there to answer: Codex's own prompt (interactive), Claude Code's dialog
    expect((await run({ ...codexPre, hook_event_name: 'PermissionRequest' })).stdout).toBe('')
    expect((await run(claudePermission)).verdict).toBe('ask')
  })

  it('Cursor: beforeShellExecution and beforeMCPExecution answered with permission and both messages', async () => {
    const base = { conversation_id: 'conv-1', generation_id: 'gen-1', workspace_roots: ['/work/dya'], cursor_version: '2.0.77' }
    const shell = await decided(
      { ...base, hook_event_name: 'beforeShellExecution', command: 'npm install express', cwd: '/work/dya' },
      {},
      'deny'
    )
    expect(shell.req.metadata).toMatchObject({ harness: 'cursor', tool_name: 'Shell', tool_input: { command: 'npm install express' } })
    expect(shell.json).toEqual({
      permission: 'deny',
      user_message: 'denied by desk in Muster: not here',
      agent_message: 'denied by desk in Muster: not here'
    })
    const mcp = await decided(
      {
        ...base,
        hook_event_name: 'beforeMCPExecution',
        tool_name: 'database_query',
        tool_input: '{"query": "DROP TABLE users"}',
        url: 'http://localhost:3000'
      },
      {},
      'allow'
    )
    expect(mcp.req.metadata).toMatchObject({ tool_name: 'database_query', tool_input: { query: 'DROP TABLE users' } })
    expect(mcp.json).toMatchObject({ permission: 'allow' })
  })

  it('OpenCode permission.asked: replied once, always or reject', async () => {
    const asked = {
      type: 'permission.asked',
      directory: '/work/muse',
      properties: {
        id: 'per_1',
        sessionID: 'ses_1',
        permission: 'bash',
        patterns: ['git push origin main'],
        metadata: {},
        always: ['git push *'],
        tool: { messageID: 'msg_1', callID: 'call_1' }
      }
    }
    const denied = await decided(asked, {}, 'deny')
    expect(denied.req.metadata).toMatchObject({ harness: 'opencode', tool_name: 'bash', tool_input: { command: 'git push origin main' } })
    expect(denied.json).toEqual({ reply: 'reject', message: 'denied by desk in Muster: not here' })
    expect((await decided(asked, {}, 'allow')).json).toEqual({ reply: 'once' })
    // OpenCode would remember `git push *` (any arguments): broader than the call, so "once"
    const broad = await decided(asked, {}, 'allow', { always: true })
    expect(broad.json).toEqual({ reply: 'once' })
    expect(broad.req.metadata.harness_always).toEqual(['git push *'])
    const exact = { ...asked, properties: { ...asked.properties, always: ['git push origin main'] } }
    expect((await decided(exact, {}, 'allow', { always: true })).json).toEqual({ reply: 'always' })
  })

  it('OpenCode 1.18.33 as it really sends them: bash and external_directory permissions, the command shown', async () => {
    const fixture = (name: string) =>
      JSON.parse(readFileSync(join(__dirname, '../../../../test/fixtures/harness-payloads/opencode/1.18.33', name), 'utf8')) as {
        directory: string
        properties: { sessionID: string; patterns: string[]; metadata: { command: string }; tool: { callID: string } }
      }
    const bash = fixture('permission.asked-bash.json')
    const command = bash.properties.metadata.command
    expect(bash.properties.patterns).toEqual([command])
    const denied = await decided(bash, {}, 'deny')
    expect(denied.req.metadata).toMatchObject({
      harness: 'opencode',
      hook_event_name: 'permission.asked',
      tool_name: 'bash',
      tool_input: { command },
      session_id: bash.properties.sessionID,
      cwd: bash.directory,
      tool_use_id: bash.properties.tool.callID,
      harness_always: ['touch *']
    })
    expect(denied.req.body).toBe(`bash: ${command}`)
    expect(denied.json).toEqual({ reply: 'reject', message: 'denied by desk in Muster: not here' })
    // OpenCode would remember `touch *`: broader than the call, so an "always" is answered `once`
    expect((await decided(bash, {}, 'allow', { always: true })).json).toEqual({ reply: 'once' })
    const outside = fixture('permission.asked-external-directory.json')
    const ext = await decided(outside, {}, 'allow')
    expect(ext.req.metadata).toMatchObject({
      tool_name: 'external_directory',
      tool_input: { command: outside.properties.metadata.command, directories: ['/tmp/ocx'], patterns: ['/tmp/ocx/*'] }
    })
    expect(ext.json).toEqual({ reply: 'once' })
  })

  it('a harness that goes away while its request waits: recorded as abandoned at once, and the request leaves the inbox', async () => {
    const { hub, ctx } = setup()
    const gone = new AbortController()
    const run = runApproveHook(JSON.stringify(claudePermission), { agent: 'a1', timeoutMs: 60_000, gone: gone.signal }, ctx)
    for (;;) {
      if ((await hub.list({ type: EventType.approvalRequest, limit: 1 })).events[0]) break
      await new Promise((r) => setTimeout(r, 10))
    }
    gone.abort()
    expect((await run).verdict).toBe('deny')
    const dec = (await hub.list({ type: EventType.approvalDecision, limit: 5 })).events
    expect(dec).toHaveLength(1)
    expect(dec[0]!.metadata).toMatchObject({
      decision: 'timeout',
      decided_by: 'abandoned',
      reason: expect.stringMatching(/harness went away/)
    })
  })
})

describe('the registry', () => {
  it('every harness file imports only its folder and the shared vocabulary (they run in every hook process)', async () => {
    const { readdirSync, readFileSync } = await import('node:fs')
    const dir = join(__dirname)
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts'))) {
      const text = readFileSync(join(dir, f), 'utf8')
      // the imports at the top (a plugin's source further down is text, not an import of this file)
      const head = text.slice(0, text.search(/^(export|const|function|let) /m))
      const from = [...head.matchAll(/^import [^;]*? from '([^']+)'/gm)].map((m) => m[1]!)
      for (const m of from) expect(m, `${f} imports ${m}`).toMatch(/^(\.\/[\w-]+|\.\.\/\.\.\/\.\.\/shared\/(contract|approvals)\/[\w-]+)$/)
    }
  })

  it('every harness says what happens on every fault, how it trusts hooks and which release was checked', async () => {
    const { GATE_FAULTS, HARNESS_LIST } = await import('./index')
    for (const h of HARNESS_LIST) {
      for (const f of GATE_FAULTS) expect(h.faults[f]?.how, `${h.id} ${f}`).toMatch(/\w/)
      expect(h.gate.entry ?? h.gate.plugin, h.id).toBeTruthy()
      expect(h.gate.defaultEvents.every((e) => h.gate.events.includes(e))).toBe(true)
      expect(h.versions.tested).toMatch(/\w/)
    }
  })
})
