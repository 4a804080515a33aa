import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tmpDir } from '../../../test/helpers/tmp'
import { createService } from '../root'
import type { MusterService } from '../service-types'
import { createHub, type HubFile as HubFile } from '../hub/store/schema'
import { appendEvent } from '../hub/store/writer'
import { testKeys } from '../../../test/helpers/operator-key'
import { ABANDONED_REASON } from '../../shared/contract/hub-vocabulary'
const open: { close(): unknown }[] = []
afterEach(async () => {
  while (open.length) await open.pop()!.close()
})

async function service(home = join(tmpDir(), 'home'), operatorId = 'desk-muster'): Promise<MusterService> {
  const s = await createService({ home, transport: 'http', watch: false })
  open.push(s)
  await s.call('settings.update', { operatorId })
  return s
}

let n = 0
/** An approval request as a hook writes it, `minutesAgo` old. */
function request(
  hub: HubFile,
  agent: string,
  command: string,
  o: { minutesAgo?: number; project?: string; timeoutMs?: number; tool?: string; input?: Record<string, unknown> } = {}
) {
  const at = new Date(Date.now() - (o.minutesAgo ?? 1) * 60_000)
  const corr = `appr_${(++n).toString(16).padStart(12, '0')}`
  return appendEvent(hub.db, hub.replicaId, {
    type: 'approval.request',
    stream: `project/${o.project ?? 'muse'}`,
    room: 'approvals',
    from_agent: agent,
    to_agent: '*',
    correlation_id: corr,
    status: 'open',
    body: `Bash: ${command}`,
    at,
    metadata: {
      tool_name: o.tool ?? 'Bash',
      tool_input: o.input ?? { command },
      harness: 'claude-code',
      session_id: 's',
      cwd: '/w',
      timeout_ms: o.timeoutMs ?? 540_000
    }
  })
}

function hubWith(): { palace: string; file: HubFile } {
  const palace = join(tmpDir(), 'palace')
  const file = createHub(palace)
  open.push(file)
  return { palace, file }
}

describe('approvals inbox (service)', () => {
  it('lists pending requests oldest first across hubs, counts identical ones, and keeps expired ones out', async () => {
    const a = hubWith()
    const b = hubWith()
    request(a.file, 'mac-claude', 'git push origin main', { minutesAgo: 3 })
    request(b.file, 'win-codex', 'npm publish', { minutesAgo: 5, project: 'dya' })
    request(a.file, 'linux-gemini', 'npm publish', { minutesAgo: 1 })
    request(a.file, 'home-bot', 'reboot', { minutesAgo: 30, timeoutMs: 60_000 }) // its hook is long gone
    const svc = await service()
    await svc.call('hubs.add', { palace: a.palace, name: 'a' })
    await svc.call('hubs.add', { palace: b.palace, name: 'b' })
    const out = await svc.call('approvals.list', {})
    expect(out.pending.map((p) => [p.hub, p.agent, p.project, p.summary, p.identical])).toEqual([
      ['b', 'win-codex', 'dya', 'Bash: npm publish', 2],
      ['a', 'mac-claude', 'muse', 'Bash: git push origin main', 1],
      ['a', 'linux-gemini', 'muse', 'Bash: npm publish', 2]
    ])
    expect(out.history.map((h) => [h.agent, h.state, h.decision])).toEqual([['home-bot', 'expired', null]])
    expect(out.hubs.map((h) => [h.hub, h.ok])).toEqual([
      ['a', true],
      ['b', true]
    ])
    expect((await svc.call('approvals.list', { hub: 'b' })).pending).toHaveLength(1)
  })

  it('a waiting request makes its agent needs-me on the Overview; a decided or expired one does not', async () => {
    const a = hubWith()
    const req = request(a.file, 'mac-claude', 'git push')
    request(a.file, 'home-bot', 'reboot', { minutesAgo: 30, timeoutMs: 60_000 })
    const svc = await service()
    await svc.call('hubs.add', { palace: a.palace, name: 'a' })
    const state = async (agent: string) => (await svc.call('hub.overview', { hub: 'a' })).hubs[0]!.agents.find((x) => x.agent === agent)
    expect(await state('mac-claude')).toMatchObject({ state: 'needs-me', reason: 'mac-claude asks to use Bash', needs: { count: 1 } })
    expect((await state('home-bot'))!.state).not.toBe('needs-me')
    expect((await svc.call('hub.overview', { hub: 'a' })).hubs[0]!.approvals_waiting).toBe(1)
    await svc.call('approvals.decide', { hub: 'a', id: req.id, decision: 'allow' })
    expect((await state('mac-claude'))!.state).not.toBe('needs-me')
  })

  it('decides as the operator; a second decision is kept and reported as a conflict', async () => {
    const a = hubWith()
    const req = request(a.file, 'mac-claude', 'git push --tags')
    const svc = await service()
    await svc.call('hubs.add', { palace: a.palace, name: 'a' })
    const first = await svc.call('approvals.decide', { hub: 'a', id: req.id, decision: 'deny', reason: 'not on Friday' })
    expect(first.outcome).toBe('decided')
    expect(first.event).toMatchObject({
      type: 'approval.decision',
      from_agent: 'desk-muster',
      to_agent: 'mac-claude',
      correlation_id: req.correlation_id,
      metadata: { ack_of: req.id, decision: 'deny', reason: 'not on Friday', decided_by: 'desk-muster' }
    })
    const second = await svc.call('approvals.decide', { hub: 'a', id: req.correlation_id!, decision: 'allow' })
    expect(second.outcome).toBe('conflict')
    expect(second.item).toMatchObject({
      state: 'deny',
      decision: { decision: 'deny' },
      conflicts: [{ decision: 'allow', decided_by: 'desk-muster' }]
    })
    const list = await svc.call('approvals.list', {})
    expect(list.pending).toEqual([])
    expect(list.history[0]).toMatchObject({ state: 'deny', conflicts: [{ decision: 'allow' }] })
  })

  it('two Muster instances deciding the same request at once: the first wins, the second is a conflict, both are kept', async () => {
    const a = hubWith()
    const req = request(a.file, 'win-codex', 'git push --force-with-lease')
    // each operator trusts the other's key (muster keys trust)
    const k1 = testKeys(join(tmpDir(), 'home1'))
    const k2 = testKeys(join(tmpDir(), 'home2'))
    k1.keys.trust(k2.signer.key, 'desk-two')
    k2.keys.trust(k1.signer.key, 'desk-one')
    const one = await service(k1.home, 'desk-one')
    const two = await service(k2.home, 'desk-two')
    const [r1, r2] = await Promise.all([
      one.call('approvals.decide', { palace: a.palace, id: req.id, decision: 'allow', reason: 'fine' }),
      two.call('approvals.decide', { palace: a.palace, id: req.id, decision: 'deny', reason: 'wait for CI' })
    ])
    expect([r1.outcome, r2.outcome].sort()).toEqual(['conflict', 'decided'])
    const winner = r1.outcome === 'decided' ? r1 : r2
    // both instances agree on the winner, and nothing was lost
    for (const s of [one, two]) {
      const [item] = (await s.call('approvals.list', { palace: a.palace })).history
      expect(item!.decision!.id).toBe(winner.event.id)
      expect(item!.conflicts).toHaveLength(1)
    }
  })

  it('a decision no trusted operator signed is forged: never applied, shown naming its writer', async () => {
    const a = hubWith()
    const req = request(a.file, 'mac-claude', 'rm -rf ~/important')
    const forge = (from: string, metadata: Record<string, unknown>) =>
      appendEvent(a.file.db, a.file.replicaId, {
        type: 'approval.decision',
        stream: req.stream,
        room: 'approvals',
        from_agent: from,
        to_agent: 'mac-claude',
        correlation_id: req.correlation_id,
        body: 'allow',
        metadata: { ack_of: req.id, decision: 'allow', reason: '', decided_by: 'desk-muster', ...metadata }
      })
    forge('mac-claude', {})
    const stranger = testKeys()
    forge('mac-claude', { signature: stranger.signer.sign('anything') })
    const svc = await service()
    const list = await svc.call('approvals.list', { palace: a.palace })
    expect(list.pending).toHaveLength(1)
    expect(list.pending[0]).toMatchObject({
      state: 'pending',
      decision: null,
      forged: [
        { decision: 'allow', decided_by: 'desk-muster', from_agent: 'mac-claude', why: 'unsigned' },
        { from_agent: 'mac-claude', why: expect.stringMatching(/^signed by a key this Muster does not trust/) }
      ]
    })
    // the operator's own decision still wins over the forged ones
    const mine = await svc.call('approvals.decide', { palace: a.palace, id: req.id, decision: 'deny', reason: 'no' })
    expect(mine).toMatchObject({ outcome: 'decided', item: { state: 'deny', decision: { decided_by: 'desk-muster' } } })
    expect(mine.item.decision!.signed_by).toMatch(/^ed25519:/)
  })

  it('refuses what is not a request, and unknown ids', async () => {
    const a = hubWith()
    const other = appendEvent(a.file.db, a.file.replicaId, {
      type: 'task.reply',
      stream: 'project/muse',
      room: 'delegation',
      from_agent: 'x',
      body: 'hi'
    })
    const svc = await service()
    await expect(svc.call('approvals.decide', { palace: a.palace, id: other.id, decision: 'allow' })).rejects.toThrow(
      /is a task.reply, not an approval.request/
    )
    await expect(svc.call('approvals.decide', { palace: a.palace, id: 'appr_0123456789ab', decision: 'allow' })).rejects.toThrow(
      /no approval request with correlation id/
    )
    await expect(svc.call('approvals.decide', { palace: a.palace, id: other.id, decision: 'timeout' as never })).rejects.toThrow(
      /invalid input for approvals.decide: decision/
    )
  })

  it('keeps allowlist rules with their hit counts; refuses duplicates and allow-everything rules', async () => {
    const svc = await service()
    const rule = await svc.call('approvals.ruleSave', {
      agent_pattern: '*',
      tool_name: 'Bash',
      input_pattern: 'npm test*',
      note: 'tests are safe'
    })
    expect(rule).toMatchObject({ id: 1, label: 'Bash(npm test*)', hits: 0, last_hit_at: null, note: 'tests are safe' })
    await expect(svc.call('approvals.ruleSave', { agent_pattern: '*', tool_name: 'Bash', input_pattern: 'npm test*' })).rejects.toThrow(
      /rule #1 already has these patterns/
    )
    await expect(svc.call('approvals.ruleSave', { agent_pattern: '*', tool_name: '*', input_pattern: '*' })).rejects.toThrow(
      /approve everything/
    )
    const changed = await svc.call('approvals.ruleSave', { id: 1, agent_pattern: 'mac-*', tool_name: 'Bash', input_pattern: 'npm test*' })
    expect(changed.label).toBe('Bash(npm test*) for mac-*')
    expect((await svc.call('approvals.rules', {})).rules).toHaveLength(1)
    await svc.call('approvals.ruleDelete', { id: 1 })
    await expect(svc.call('approvals.ruleDelete', { id: 1 })).rejects.toThrow(/no allowlist rule #1/)
  })

  it('a saved rule is never broader than what the operator saw: no rule for empty arguments, no "always" for a call nobody could read', async () => {
    const svc = await service()
    await expect(svc.call('approvals.ruleSave', { agent_pattern: 'gh-*', tool_name: 'bash', input_pattern: '{}' })).rejects.toThrow(
      /no arguments would allow calls whose arguments nobody read/
    )
    // a request an older hook recorded without its arguments (Copilot's `toolInput` read as `toolArgs`: `bash {}`)
    const a = hubWith()
    const blind = request(a.file, 'gh-copilot', '', { tool: 'bash', input: {} })
    await expect(svc.call('approvals.decide', { palace: a.palace, id: blind.id, decision: 'allow', always: true })).rejects.toThrow(
      /cannot always allow bash: the request is bash without a readable command.*allow it once instead/
    )
    // once is fine: the operator decides this call only
    expect((await svc.call('approvals.decide', { palace: a.palace, id: blind.id, decision: 'allow' })).outcome).toBe('decided')
  })

  it('bulk-approves identical requests, each with its own outcome', async () => {
    const a = hubWith()
    const r1 = request(a.file, 'mac-claude', 'npm ci')
    const r2 = request(a.file, 'win-codex', 'npm ci')
    const svc = await service()
    await svc.call('hubs.add', { palace: a.palace, name: 'a' })
    const out = await svc.call('approvals.decideMany', {
      items: [
        { hub: 'a', id: r1.id },
        { hub: 'a', id: r2.id },
        { hub: 'a', id: 'evt_20260101T000000_000000000000' }
      ],
      decision: 'allow',
      reason: 'bulk'
    })
    expect(out.results.map((r) => ('error' in r ? r.error : r.outcome))).toEqual([
      'decided',
      'decided',
      "event 'evt_20260101T000000_000000000000' not found"
    ])
    expect((await svc.call('approvals.list', {})).pending).toEqual([])
  })

  it('an abandoned or timed-out request leaves the inbox, and a late decision on it is refused: no agent is waiting', async () => {
    const a = hubWith()
    const r1 = request(a.file, 'mac-claude', 'make deploy')
    const r2 = request(a.file, 'mac-claude', 'make release')
    for (const [r, by] of [
      [r1, 'abandoned'],
      [r2, 'timeout']
    ] as const)
      appendEvent(a.file.db, a.file.replicaId, {
        type: 'approval.decision',
        stream: r.stream,
        room: 'approvals',
        from_agent: 'mac-claude',
        to_agent: 'mac-claude',
        correlation_id: r.correlation_id,
        body: 'timeout',
        metadata: { ack_of: r.id, decision: 'timeout', reason: by === 'abandoned' ? ABANDONED_REASON : 'gone', decided_by: by }
      })
    const svc = await service()
    await svc.call('hubs.add', { palace: a.palace, name: 'a' })
    const list = await svc.call('approvals.list', { history_limit: 10 })
    expect(list.pending).toEqual([])
    expect(list.history.map((h) => h.state).sort()).toEqual(['abandoned', 'timeout'])
    await expect(svc.call('approvals.decide', { hub: 'a', id: r1.correlation_id!, decision: 'allow' })).rejects.toThrow(
      /^no agent is waiting for appr_\w+: its harness went away before a decision; your decision was not recorded$/
    )
    await expect(svc.call('approvals.decide', { hub: 'a', id: r2.correlation_id!, decision: 'deny' })).rejects.toThrow(
      /no agent is waiting/
    )
    const decisions = (await svc.call('hub.list', { hub: 'a', type: 'approval.decision', limit: 10 })).events
    expect(decisions).toHaveLength(2)
  })

  it('"Not now" hides a request from the queue for a while without deciding it; it comes back by itself or on demand', async () => {
    const a = hubWith()
    const req = request(a.file, 'mac-claude', 'terraform apply')
    request(a.file, 'linux-claude', 'npm publish')
    const svc = await service()
    await svc.call('hubs.add', { palace: a.palace, name: 'a' })
    const { item } = await svc.call('approvals.snooze', { hub: 'a', id: req.id, minutes: 60 })
    expect(item.state).toBe('pending')
    expect(Date.parse(item.snoozed_until!) - Date.now()).toBeGreaterThan(59 * 60_000)
    // still pending (undecided, the agent waits), marked snoozed; nothing was appended
    const listed = await svc.call('approvals.list', {})
    expect(listed.pending.map((p) => [p.agent, p.snoozed_until !== null])).toEqual([
      ['mac-claude', true],
      ['linux-claude', false]
    ])
    expect((await svc.call('hub.list', { hub: 'a', type: 'approval.decision', limit: 10 })).events).toHaveLength(0)
    // the needs-you queue leaves it out until its time
    const needs = await svc.call('needs.list', {})
    expect(needs.items.filter((i) => i.kind === 'approval').map((i) => i.agent)).toEqual(['linux-claude'])
    // woken now, it is back
    await svc.call('approvals.snooze', { hub: 'a', id: req.correlation_id!, minutes: 0 })
    expect((await svc.call('approvals.list', {})).pending.every((p) => !p.snoozed_until)).toBe(true)
    expect((await svc.call('needs.list', {})).items.filter((i) => i.kind === 'approval')).toHaveLength(2)
    // a decided request has nothing to snooze
    await svc.call('approvals.decide', { hub: 'a', id: req.id, decision: 'deny' })
    await expect(svc.call('approvals.snooze', { hub: 'a', id: req.id, minutes: 15 })).rejects.toThrow(/not pending \(deny\)/)
    await expect(svc.call('approvals.snooze', { hub: 'a', id: req.id, minutes: 5000 })).rejects.toThrow()
  })

  it('a snooze ends by itself at its time', async () => {
    const { SnoozeStore } = await import('./snooze-store')
    const { openDatabase } = await import('../sqlite')
    const { migrations } = await import('../fleet/migrations')
    const db = openDatabase(join(tmpDir(), 'state.db'))
    open.push(db)
    for (const m of migrations) db.exec(m)
    const store = new SnoozeStore(db)
    const t0 = new Date('2026-12-05T10:00:00Z')
    store.snooze('appr_000000000001', new Date('2026-12-05T10:15:00Z'), t0)
    expect([...store.active(new Date('2026-12-05T10:14:59Z')).keys()]).toEqual(['appr_000000000001'])
    expect(store.active(new Date('2026-12-05T10:15:00Z')).size).toBe(0)
  })
})
