/**
 * Issue 31 point 7: an approval event type spelt with edge whitespace or capitals
 * (`" approval.decision"`, `"Approval.Request"`) is refused by every entry an agent or an API caller
 * can append through, exactly as the plain spelling is, and nothing reaches the hub: the hub's
 * writer trims a type before storing it, so a refusal that compared the raw text let fake requests
 * into the inbox. Each entry is tried on a local palace and on a hub server (test/hub_server.py):
 * `muster events append`, the MCP tool `mempalace_event_append` (the code `muster mcp` serves) and
 * the contract's `hub.append`. Routing (needs-you messages) folds the same way; the timeline's type
 * colours too (`event-bits.test.ts`).
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCliAtHome } from '../../test/helpers/cli'
import { approvalAppendArgs } from '../../test/helpers/cli-args'
import { registerHubServer } from '../../test/helpers/hub-server-cli'
import { tmpDir } from '../../test/helpers/tmp'
import type { HubServer } from '../../test/helpers/hub-server'
import { hubTools } from '../core/mcp'
import { messageNeeds } from '../core/needs/need-items'
import { openRoot, type Root } from '../core/root'
import type { HubEventEnvelope } from '../shared/contract/hub-types'
import { eventTypeKey, isApprovalEventType } from '../shared/event-type'

/** Spellings the hub's writer would store as an approval type, or that name one once case-folded. */
const SPELLINGS = [
  'approval.decision',
  ' approval.decision',
  'approval.request ',
  '\tapproval.request',
  '\u3000approval.request',
  'approval.decision\x1f',
  'Approval.Request',
  ' APPROVAL.DECISION\n',
  'approval.anything'
]

let home: string
let palace: string
let server: HubServer
let root: Root

beforeAll(async () => {
  home = tmpDir('muster-home-')
  palace = join(tmpDir(), 'palace')
  server = await registerHubServer(home, { token: 'spell-token-5b1e', name: 'lab' })
  expect(await runCliAtHome(home, 'hubs', 'add', palace, '--name', 'local', '--create')).toMatchObject({ code: 0 })
  root = openRoot({ home, env: {} })
}, 60_000)

afterAll(async () => {
  await root?.close()
  await server?.stop()
})

const HUBS = ['local', 'lab'] as const

/** Every event in the hub NAME, through the CLI (a read that sees both hub kinds the same way). */
async function stored(hub: string): Promise<HubEventEnvelope[]> {
  const r = await runCliAtHome(home, 'events', 'list', '--hub', hub, '--json')
  expect(r.code, r.err).toBe(0)
  return (JSON.parse(r.out) as { events: HubEventEnvelope[] }).events
}

describe('approval types are refused however they are spelt', () => {
  it('the key trims as the writer trims and folds case', () => {
    for (const t of SPELLINGS) expect(isApprovalEventType(t), JSON.stringify(t)).toBe(true)
    expect(eventTypeKey(' Approval.Decision\x1c')).toBe('approval.decision')
    for (const t of ['approvals.x', 'task.request', ' approval', 'xapproval.request', 'approval\u200b.request'])
      expect(isApprovalEventType(t), JSON.stringify(t)).toBe(false)
  })

  it.each(HUBS)('muster events append on %s', async (hub) => {
    for (const type of SPELLINGS) {
      const r = await runCliAtHome(home, ...approvalAppendArgs(type, 'appr_0000aaaa', '--hub', hub, '--to-agent', 'desk-muster'))
      expect(r.code, JSON.stringify(type)).not.toBe(0)
      expect(r.err).toMatch(/agents cannot append approval\.(request|decision|\*) events/)
    }
    expect(await stored(hub)).toEqual([])
  })

  it.each(HUBS)('MCP mempalace_event_append on %s', async (hub) => {
    const tools = hubTools(await root.get('hubs'), { hub })
    for (const type of SPELLINGS) {
      const out = await tools.mempalace_event_append(
        {
          type,
          stream: 'project/muse',
          room: 'approvals',
          from_agent: 'mac-claude',
          to_agent: 'desk-muster',
          correlation_id: 'appr_0000bbbb'
        },
        new AbortController().signal
      )
      expect(out, JSON.stringify(type)).toMatchObject({ success: false, error: expect.stringMatching(/^agents cannot append approval\./) })
    }
    // the same tool still appends an ordinary event, so the refusal is about the type alone
    expect(
      await tools.mempalace_event_append(
        { type: ' chat.message', stream: 's', room: 'r', from_agent: 'mac-claude' },
        new AbortController().signal
      )
    ).toMatchObject({ success: true, event: { type: 'chat.message' } })
    expect((await stored(hub)).map((e) => e.type)).toEqual(['chat.message'])
  })

  it.each(HUBS)('the contract hub.append on %s', async (hub) => {
    const service = await root.get('service')
    const before = (await stored(hub)).length
    for (const type of SPELLINGS)
      await expect(
        service.call('hub.append', { hub, type, stream: 'project/muse', room: 'approvals', to_agent: 'desk-muster' }),
        JSON.stringify(type)
      ).rejects.toMatchObject({ code: 'forbidden', message: expect.stringMatching(/^hub\.append cannot write approval\./) })
    expect(await stored(hub)).toHaveLength(before)
  })
})

describe('routing folds the type the same way', () => {
  const event = (type: string): HubEventEnvelope =>
    ({
      id: `evt_${type.length}`,
      type,
      stream: 'project/muse',
      room: 'approvals',
      from_agent: 'mac-claude',
      to_agent: 'desk-muster',
      correlation_id: null,
      status: null,
      body: 'rm -rf ~',
      created_at: '2026-01-01T00:00:00Z'
    }) as HubEventEnvelope

  it('a row stored with a spelt-out approval or patch type (another writer) is never a direct message', () => {
    const where = { hub: 'h', palace: '/p', linkHub: null }
    for (const type of [...SPELLINGS, ' patch.ready', 'Task.Request', 'EVENT.ACK'])
      expect(messageNeeds(where, [event(type)]), JSON.stringify(type)).toEqual([])
    expect(messageNeeds(where, [event('chat.message')])).toHaveLength(1)
  })
})
