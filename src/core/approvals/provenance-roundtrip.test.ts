/**
 * Claude Code payloads shaped as its published types (test/fixtures/harness-payloads/claude-code)
 * through the real hook path into a hub, and back out through the service's inbox: the MCP server
 * and its source, the subagent, the permission mode, a skill's shell line and fields no adapter
 * knows yet all survive; `PreSkillShellCommand` is answered in its own shape and never with `ask`.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tmpDir } from '../../../test/helpers/tmp'
import { EventType } from '../../shared/contract/hub-vocabulary'
import type { HubEventEnvelope } from '../../shared/contract/hub-types'
import { createService } from '../root'
import { LocalHub } from '../hub/local/local-hub'
import { createHub } from '../hub/store/schema'
import { decisionAppend } from './approval-events'
import { runApproveHook, type HookContext } from './approve-hook'
import { readHookInput } from './hook-input'
import { testKeys } from '../../../test/helpers/operator-key'

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'harness-payloads', 'claude-code', 'sdk-0.3.337')
const fixture = (name: string): string => readFileSync(join(FIXTURES, name), 'utf8')

const closers: (() => unknown)[] = []
afterEach(async () => {
  while (closers.length) await closers.pop()!()
})

/** A hub, the operator's home with it registered, and a hook context on that hub. */
async function setup() {
  const home = join(tmpDir(), 'home')
  const palace = join(tmpDir(), 'palace')
  createHub(palace).close()
  const hub = new LocalHub(palace, { busyTimeoutMs: 2000 })
  closers.push(() => hub.close())
  const keys = testKeys(home)
  const ctx: HookContext = {
    hub,
    rules: null,
    trust: keys.trust,
    operator: 'desk-muster',
    projectFor: () => 'muse',
    warn: () => undefined
  }
  const service = await createService({ home, transport: 'http', watch: false })
  closers.push(() => service.close())
  await service.call('settings.update', { operatorId: 'desk-muster' })
  await service.call('hubs.add', { palace, name: 'lab' })
  return { hub, ctx, keys, service }
}

/** Runs the hook on `payload`; once its request is in the hub, returns the inbox's item for it, then denies it. */
async function throughTheInbox(s: Awaited<ReturnType<typeof setup>>, payload: string) {
  const run = runApproveHook(payload, { agent: 'mac-claude', timeoutMs: 60_000 }, s.ctx)
  let request: HubEventEnvelope | undefined
  while (!(request = (await s.hub.list({ type: EventType.approvalRequest, order: 'desc', limit: 1 })).events[0]))
    await new Promise((r) => setTimeout(r, 10))
  const inbox = await s.service.call('approvals.list', {})
  const item = inbox.pending.find((p) => p.id === request!.id)!
  await s.hub.append(
    decisionAppend(
      request,
      { decision: 'deny', reason: 'checked', decided_by: 'desk-muster', from_agent: 'desk-muster' },
      { signer: s.keys.signer }
    )
  )
  return { item, request, run: await run }
}

describe('provenance from the published Claude Code types round-trips', () => {
  it('an MCP server of the repository, a subagent and the permission mode reach the stored request and the inbox', async () => {
    const s = await setup()
    const { item, request } = await throughTheInbox(s, fixture('permission-request-mcp-subagent.json'))
    expect(request.metadata.provenance).toEqual({
      mcp_server: { name: 'github', source: 'project' },
      agent_id: 'a3f9c2',
      agent_type: 'code-reviewer',
      permission_mode: 'default'
    })
    expect(item.provenance).toEqual(request.metadata.provenance)
    expect(item.extra_fields ?? null).toBeNull()
  })

  it('a built-in MCP server keeps built_in; the main thread of an --agent session has a type and no id', async () => {
    const s = await setup()
    const { item } = await throughTheInbox(s, fixture('pre-tool-use-built-in-mcp.json'))
    expect(item.provenance).toEqual({
      mcp_server: { name: 'ide', source: 'dynamic', built_in: true },
      agent_type: 'release-manager',
      permission_mode: 'acceptEdits'
    })
  })

  it('a skill shell line shows the skill, its source and who invoked it, and is answered in its own shape', async () => {
    const s = await setup()
    const { item, run } = await throughTheInbox(s, fixture('pre-skill-shell-command.json'))
    expect(item.tool_name).toBe('Bash')
    expect(item.tool_input).toEqual({ command: 'git log --oneline -20 -- src/core' })
    expect(item.provenance?.skill).toEqual({ command_name: 'release-notes', command_source: 'projectSettings', invoked_by: 'claude' })
    expect(JSON.parse(run.stdout)).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreSkillShellCommand',
        permissionDecision: 'deny',
        permissionDecisionReason: 'denied by desk-muster in Muster: checked'
      }
    })
  })

  it('fields no type names yet are kept verbatim in the request and shown in the inbox', async () => {
    const s = await setup()
    const { item, request } = await throughTheInbox(s, fixture('future-field.json'))
    expect(request.metadata.extra_fields).toEqual({ classifier_verdict: { decision: 'ask', confidence: 0.62 }, sandbox: 'workspace-write' })
    expect(item.extra_fields).toEqual(request.metadata.extra_fields)
    expect(item.provenance).toEqual({ permission_mode: 'auto' })
  })

  it('a skill shell line with no hub to ask is denied with the reason, never answered ask (which would also block, silently)', async () => {
    const s = await setup()
    const run = await runApproveHook(
      fixture('pre-skill-shell-command.json'),
      { agent: 'mac-claude' },
      { ...s.ctx, hub: { unreachable: 'no hub at /x' } }
    )
    const out = JSON.parse(run.stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } }
    expect(out.hookSpecificOutput.permissionDecision).toBe('deny')
    expect(out.hookSpecificOutput.permissionDecisionReason).toContain('no hub at /x')
  })

  it('huge unknown fields are bounded: the small ones are kept, the rest named', () => {
    const payload = JSON.parse(fixture('future-field.json')) as Record<string, unknown>
    payload.big_blob = 'x'.repeat(100_000)
    const read = readHookInput(JSON.stringify(payload))
    expect(read.ok).toBe(true)
    if (!read.ok) return
    expect(read.call.extra).toEqual({
      classifier_verdict: { decision: 'ask', confidence: 0.62 },
      sandbox: 'workspace-write',
      _dropped: ['big_blob']
    })
  })

  it('provenance of the wrong type is dropped, never an error (it only informs)', () => {
    const payload = JSON.parse(fixture('permission-request-mcp-subagent.json')) as Record<string, unknown>
    payload.mcp_server = { name: 7, source: 'project' }
    payload.agent_id = ['x']
    const read = readHookInput(JSON.stringify(payload))
    expect(read.ok && read.call.provenance).toEqual({ agent_type: 'code-reviewer', permission_mode: 'default' })
  })
})
