/**
 * The session hook's side of receipts, in one process on a real hub: Claude Code's own payloads
 * (the SDK 0.3.337 fixtures) after a call Muster allowed become its `done` receipt exactly once,
 * and an Interrupt withdraws what the session still waited for, so a late decision is refused.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { hookHome } from '../../../test/helpers/hook-home'
import { testKeys } from '../../../test/helpers/operator-key'
import { EventType } from '../../shared/contract/hub-vocabulary'
import type { HubPort } from '../hub/hub-port'
import { LocalHub } from '../hub/local/local-hub'
import { runApproveHook, type HookContext } from './approve-hook'
import { enableReceipts, sessionHasMarkers, takeMarker } from './receipt-markers'
import { readSessionHook } from './session-lifecycle'
import { recordTaken, settleSessionEnd } from './session-receipts'

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'harness-payloads', 'claude-code', 'sdk-0.3.337')
const fixture = (name: string) => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as Record<string, unknown>
const H = 'claude-code'

const closers: (() => unknown)[] = []
afterEach(async () => {
  while (closers.length) await closers.pop()!()
})

async function setup() {
  const { home, palace, service } = await hookHome('desk-muster')
  closers.push(() => service.close())
  const hub = new LocalHub(palace, { busyTimeoutMs: 300 })
  closers.push(() => hub.close())
  const ctx: HookContext = {
    hub,
    rules: null,
    trust: testKeys(home).trust,
    operator: 'desk-muster',
    projectFor: () => 'muse',
    receipts: { home, palace },
    warn: () => {}
  }
  enableReceipts(home, H)
  return { home, palace, service, hub, ctx }
}

/** The PermissionRequest Claude Code sends before the call a PostToolUse fixture reports. */
const askFor = (post: Record<string, unknown>) => {
  const ask: Record<string, unknown> = { ...post, hook_event_name: 'PermissionRequest' }
  delete ask.tool_response
  delete ask.error
  delete ask.is_interrupt
  delete ask.reason
  return JSON.stringify(ask)
}

const receiptsOf = async (hub: HubPort, corr: string) =>
  (await hub.list({ correlation_id: corr, type: EventType.approvalReceipt, order: 'asc', limit: 50 })).events.map((e) => e.metadata.stage)

describe('session hook receipts', () => {
  it('PostToolUse after a delivered allow records `ran` once, however often the event comes', async () => {
    const { home, service, hub, ctx } = await setup()
    const post = fixture('post-tool-use.json')
    const run = runApproveHook(askFor(post), { agent: 'mac-claude', timeoutMs: 30_000 }, ctx)
    let pending
    while (!(pending = (await service.call('approvals.list', { hub: 'main' })).pending[0])) await new Promise((r) => setTimeout(r, 20))
    await service.call('approvals.decide', { hub: 'main', id: pending.correlation_id, decision: 'allow' })
    await (
      await run
    ).delivered!()

    const read = readSessionHook(JSON.stringify(post), { harness: 'claude' })
    if (!read.ok || read.state !== null) throw new Error('not a receipt read')
    expect(read.receipt).toMatchObject({ outcome: 'ran', hook_event: 'PostToolUse', call: { tool_use_id: 'toolu_01HZ8Q4MUSTER' } })
    const settle = async () => {
      const taken = takeMarker(home, H, read.receipt.session_id, read.receipt.call)
      return taken
        ? recordTaken(
            [taken],
            () => read.receipt.outcome,
            { hook_event: 'PostToolUse', from_agent: 'mac-claude' },
            async () => hub,
            () => {}
          )
        : 0
    }
    expect(await settle()).toBe(1)
    expect(await settle()).toBe(0)
    expect(sessionHasMarkers(home, H, read.receipt.session_id)).toBe(false)
    expect(await receiptsOf(hub, pending.correlation_id)).toEqual(['delivered', 'ran'])
    const item = (await service.call('approvals.list', { hub: 'main' })).history.find((h) => h.correlation_id === pending.correlation_id)
    expect(item).toMatchObject({ state: 'allow', stage: 'done', outcome: 'ran' })
  })

  it('PostToolUseFailure with is_interrupt is `interrupted`, PermissionDenied is `denied`', () => {
    const failure = readSessionHook(JSON.stringify(fixture('post-tool-use-failure.json')), { harness: 'claude' })
    const denied = readSessionHook(JSON.stringify(fixture('permission-denied.json')), { harness: 'claude' })
    const failed = readSessionHook(JSON.stringify({ ...fixture('post-tool-use-failure.json'), is_interrupt: false }), { harness: 'claude' })
    expect([failure, denied, failed].map((r) => (r.ok && r.state === null ? r.receipt.outcome : null))).toEqual([
      'interrupted',
      'denied',
      'failed'
    ])
  })

  it('Interrupt withdraws the request the session waited on: its hook answers no, and a late decision is refused', async () => {
    const { home, service, hub, ctx } = await setup()
    const interrupt: Record<string, unknown> = { ...fixture('interrupt.json'), reason: 'stop' }
    const post = { ...fixture('post-tool-use.json'), session_id: interrupt.session_id }
    const run = runApproveHook(askFor(post), { agent: 'mac-claude', timeoutMs: 30_000 }, ctx)
    let pending
    while (!(pending = (await service.call('approvals.list', { hub: 'main' })).pending[0])) await new Promise((r) => setTimeout(r, 20))

    const read = readSessionHook(JSON.stringify(interrupt), { harness: 'claude' })
    if (!read.ok || !read.state) throw new Error('not a session state')
    expect(read.state).toMatchObject({ state: 'interrupted', hook_event: 'Interrupt', message: 'stop, via terminal' })
    expect(read.end).toBe('withdrawn')
    const n = await settleSessionEnd(
      home,
      H,
      read.state.session_id,
      read.end!,
      { hook_event: 'Interrupt', from_agent: 'mac-claude', reason: read.state.message },
      async () => hub,
      () => {}
    )
    expect(n).toBe(1)
    const out = await run
    expect(JSON.parse(out.stdout).hookSpecificOutput.decision).toMatchObject({ behavior: 'deny' })
    await expect(service.call('approvals.decide', { hub: 'main', id: pending.correlation_id, decision: 'allow' })).rejects.toThrow(
      /no agent is waiting .*withdrawn \(Interrupt: stop, via terminal\)/
    )
    const item = (await service.call('approvals.list', { hub: 'main' })).history.find((h) => h.correlation_id === pending.correlation_id)
    expect(item).toMatchObject({ state: 'withdrawn', stage: 'withdrawn', decision: null })
  })

  it('Interrupt with reason permission_denied ends a delivered allow that has not run as `denied`; SessionEnd as withdrawn', () => {
    const denied = readSessionHook(JSON.stringify(fixture('interrupt.json')), { harness: 'claude' })
    const ended = readSessionHook(JSON.stringify({ ...fixture('interrupt.json'), hook_event_name: 'SessionEnd', reason: 'exit' }), {
      harness: 'claude'
    })
    expect(denied).toMatchObject({ ok: true, end: 'denied' })
    expect(ended).toMatchObject({ ok: true, state: { state: 'done' }, end: 'withdrawn' })
  })
})
