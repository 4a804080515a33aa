/**
 * Receipts end to end in one process, on a real hub file: the approve-hook records the delivery
 * and leaves the marker once its answer is out; a withdrawal ends its wait with a deny and no
 * decision; the fold gives each request its stage.
 */
import { readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { closeAfterEach, openTestHub } from '../../../test/helpers/hook-hub'
import { tmpDir } from '../../../test/helpers/tmp'
import { testKeys } from '../../../test/helpers/operator-key'
import { EventType } from '../../shared/contract/hub-vocabulary'
import type { HubEventEnvelope } from '../../shared/contract/hub-types'
import type { HubPort } from '../hub/hub-port'
import { decisionAppend, foldApproval } from './approval-events'
import { receiptAppend, recordReceipt, requestRef } from './approval-receipts'
import { runApproveHook, type HookContext } from './approve-hook'
import { enableReceipts, sessionReceiptsDir } from './receipt-markers'

const operator = testKeys()
const closers = closeAfterEach()

function setup() {
  const { palace, hub } = openTestHub(closers)
  const home = tmpDir()
  const warnings: string[] = []
  const ctx: HookContext = {
    hub,
    rules: null,
    trust: operator.trust,
    operator: 'desk-muster',
    projectFor: () => 'muse',
    receipts: { home, palace },
    warn: (l) => warnings.push(l)
  }
  return { hub, home, palace, ctx, warnings }
}

/** The operator (desk-muster) decides `req` in the hub, signed with the operator's key. */
const decide = (hub: HubPort, req: HubEventEnvelope, decision: 'allow' | 'deny', reason: string) =>
  hub.append(decisionAppend(req, { decision, reason, decided_by: 'desk-muster', from_agent: 'desk-muster' }, { signer: operator.signer }))

const permissionRequest = (command: string, tool_use_id = 'toolu_01') =>
  JSON.stringify({
    session_id: 's-1',
    transcript_path: '/h/.claude/projects/x/s-1.jsonl',
    cwd: '/work/muse',
    permission_mode: 'default',
    hook_event_name: 'PermissionRequest',
    tool_name: 'Bash',
    tool_input: { command },
    tool_use_id
  })

async function requestOf(hub: HubPort): Promise<HubEventEnvelope> {
  for (;;) {
    const req = (await hub.list({ type: EventType.approvalRequest, order: 'desc', limit: 1 })).events[0]
    if (req) return req
    await new Promise((r) => setTimeout(r, 10))
  }
}

const threadOf = async (hub: HubPort, correlation_id: string) => (await hub.list({ correlation_id, order: 'asc', limit: 50 })).events

const fold = async (hub: HubPort, req: HubEventEnvelope) =>
  foldApproval(req, (await threadOf(hub, req.correlation_id!)).slice(1), { hub: 'h', palace: 'p' }, operator.trust)

describe('receipts', () => {
  it('an answer that is out is recorded as delivered, and an allow leaves the marker its session settles', async () => {
    const { hub, home, ctx } = setup()
    enableReceipts(home, 'claude-code')
    const run = runApproveHook(permissionRequest('npm publish'), { agent: 'mac-claude', timeoutMs: 20_000 }, ctx)
    const req = await requestOf(hub)
    // while the operator decides, the marker waits
    const dir = sessionReceiptsDir(home, 'claude-code', 's-1')
    expect(readdirSync(dir)).toEqual(['u-toolu_01.json'])
    expect((await fold(hub, req)).stage).toBe('asked')
    await decide(hub, req, 'allow', '')
    const out = await run
    expect(JSON.parse(out.stdout).hookSpecificOutput.decision.behavior).toBe('allow')
    // decided, not yet delivered: the receipt comes once the answer is printed
    expect((await fold(hub, req)).stage).toBe('decided')
    await out.delivered!()
    const item = await fold(hub, req)
    expect(item).toMatchObject({ state: 'allow', stage: 'delivered', outcome: null })
    expect(item.receipts!.map((r) => [r.stage, r.hook_event])).toEqual([['delivered', 'PermissionRequest']])
    expect(readdirSync(dir)).toEqual(['u-toolu_01.json'])
  })

  it('a delivered deny removes the marker: nothing of it runs', async () => {
    const { hub, home, ctx } = setup()
    enableReceipts(home, 'claude-code')
    const run = runApproveHook(permissionRequest('rm -rf dist'), { agent: 'mac-claude', timeoutMs: 20_000 }, ctx)
    const req = await requestOf(hub)
    await decide(hub, req, 'deny', 'no')
    await (
      await run
    ).delivered!()
    expect(() => readdirSync(sessionReceiptsDir(home, 'claude-code', 's-1'))).toThrow(/ENOENT/)
    expect(await fold(hub, req)).toMatchObject({ state: 'deny', stage: 'delivered' })
  })

  it('without the receipt hooks installed, no marker is left (the delivery is still recorded)', async () => {
    const { hub, home, ctx } = setup()
    const run = runApproveHook(permissionRequest('npm publish'), { agent: 'mac-claude', timeoutMs: 20_000 }, ctx)
    const req = await requestOf(hub)
    await decide(hub, req, 'allow', '')
    await (
      await run
    ).delivered!()
    expect(readdirSync(home)).not.toContain('receipts')
    expect((await fold(hub, req)).stage).toBe('delivered')
  })

  it('a withdrawal ends the wait with a deny and records no decision; a later decision is a conflict', async () => {
    const { hub, ctx } = setup()
    const run = runApproveHook(permissionRequest('npm publish'), { agent: 'mac-claude', timeoutMs: 20_000 }, ctx)
    const req = await requestOf(hub)
    await hub.append(
      receiptAppend(requestRef(req), { stage: 'withdrawn', hook_event: 'Interrupt', from_agent: 'mac-claude', reason: 'stop' })
    )
    const out = await run
    expect(JSON.parse(out.stdout).hookSpecificOutput.decision).toEqual({
      behavior: 'deny',
      message: 'Muster approvals: the request was withdrawn (stop)'
    })
    expect(out.delivered).toBeUndefined()
    const thread = await threadOf(hub, req.correlation_id!)
    expect(thread.map((e) => e.type)).toEqual(['approval.request', 'approval.receipt'])
    await decide(hub, req, 'allow', '')
    const item = await fold(hub, req)
    expect(item).toMatchObject({ state: 'withdrawn', stage: 'withdrawn', decision: null })
    expect(item.conflicts.map((c) => c.decision)).toEqual(['allow'])
  })

  it('each stage is recorded once per request, and a call has one outcome', async () => {
    const { hub } = setup()
    const req = await hub.append({
      type: EventType.approvalRequest,
      stream: 'project/muse',
      room: 'approvals',
      from_agent: 'mac-claude',
      to_agent: 'desk-muster',
      correlation_id: 'appr_00000000000a',
      body: 'Bash: ls',
      metadata: { tool_name: 'Bash', tool_input: { command: 'ls' }, timeout_ms: 1000 }
    })
    const ref = requestRef(req)
    const w = { hook_event: 'PostToolUse', from_agent: 'mac-claude' }
    expect(await recordReceipt(hub, ref, { ...w, stage: 'ran' })).not.toBeNull()
    expect(await recordReceipt(hub, ref, { ...w, stage: 'ran' })).toBeNull()
    expect(await recordReceipt(hub, ref, { ...w, stage: 'failed' })).toBeNull()
    const receipts = (await threadOf(hub, 'appr_00000000000a')).filter((e) => e.type === EventType.approvalReceipt)
    expect(receipts.map((e) => e.metadata.stage)).toEqual(['ran'])
  })
})
