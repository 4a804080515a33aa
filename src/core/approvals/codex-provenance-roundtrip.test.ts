/**
 * Codex payloads shaped as the input schemas Codex 0.171.0 ships in its binary
 * (test/fixtures/harness-payloads/codex/schema-0.171.0-*.json): a subagent's PermissionRequest
 * keeps its `agent_id`, `agent_type` and `permission_mode` from the hook into the stored request
 * and the service's inbox, and Codex's Interrupt ends the session's waits as Claude Code's does.
 * Where the Codex CLI is installed, each fixture is checked against the schema it was copied from.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { codexBinary, codexSchema } from '../../../test/helpers/codex-schemas'
import { hookHome } from '../../../test/helpers/hook-home'
import { testKeys } from '../../../test/helpers/operator-key'
import { EventType } from '../../shared/contract/hub-vocabulary'
import type { HubEventEnvelope } from '../../shared/contract/hub-types'
import { LocalHub } from '../hub/local/local-hub'
import { decisionAppend } from './approval-events'
import { runApproveHook, type HookContext } from './approve-hook'
import { readSessionHook } from './session-lifecycle'

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'harness-payloads', 'codex')
const text = (name: string): string => readFileSync(join(FIXTURES, name), 'utf8')
const SUBAGENT = 'schema-0.171.0-PermissionRequest-subagent.json'
const INTERRUPT = 'schema-0.171.0-Interrupt.json'

const closers: (() => unknown)[] = []
afterEach(async () => {
  while (closers.length) await closers.pop()!()
})

const binary = codexBinary()

describe.skipIf(!binary)('the Codex fixtures against the schemas Codex ships', () => {
  it.each([
    [SUBAGENT, 'permission-request.command.input'],
    [INTERRUPT, 'interrupt.command.input']
  ])(
    '%s names every required field of %s and none it does not declare',
    (name, title) => {
      const schema = codexSchema(binary!, title)
      expect(schema, `${title} in the Codex binary`).not.toBeNull()
      const keys = Object.keys(JSON.parse(text(name)) as object)
      expect(keys.filter((k) => !(k in schema!.properties!))).toEqual([])
      expect((schema!.required ?? []).filter((k) => !keys.includes(k))).toEqual([])
    },
    60_000
  )
})

describe('Codex provenance and Interrupt round-trip', () => {
  it('a subagent’s PermissionRequest keeps agent_id, agent_type and permission_mode in the request and the inbox', async () => {
    const { home, palace, service } = await hookHome('desk-muster')
    closers.push(() => service.close())
    const hub = new LocalHub(palace, { busyTimeoutMs: 2000 })
    closers.push(() => hub.close())
    const keys = testKeys(home)
    const ctx: HookContext = { hub, rules: null, trust: keys.trust, operator: 'desk-muster', projectFor: () => 'proj', warn: () => {} }
    const run = runApproveHook(text(SUBAGENT), { agent: 'win-codex', timeoutMs: 60_000 }, ctx)
    let request: HubEventEnvelope | undefined
    while (!(request = (await hub.list({ type: EventType.approvalRequest, order: 'desc', limit: 1 })).events[0]))
      await new Promise((r) => setTimeout(r, 10))
    expect(request.metadata).toMatchObject({ harness: 'codex', hook_event_name: 'PermissionRequest', tool_name: 'Bash' })
    expect(request.metadata.provenance).toEqual({
      agent_id: '01a250ba-0c41-7d22-9e37-5b8f0a6c2d19',
      agent_type: 'explorer',
      permission_mode: 'default'
    })
    const item = (await service.call('approvals.list', { hub: 'main' })).pending.find((p) => p.id === request!.id)
    expect(item?.provenance).toEqual(request.metadata.provenance)
    // turn_id and model are Codex's own, known fields: nothing is left over as an extra
    expect(item?.extra_fields ?? null).toBeNull()
    await hub.append(
      decisionAppend(
        request,
        { decision: 'allow', reason: '', decided_by: 'desk-muster', from_agent: 'desk-muster' },
        { signer: keys.signer }
      )
    )
    expect(JSON.parse((await run).stdout)).toEqual({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } }
    })
  })

  it('Codex’s Interrupt shows the session interrupted and withdraws what it waits for', () => {
    const read = readSessionHook(text(INTERRUPT), { harness: 'codex' })
    expect(read).toMatchObject({
      ok: true,
      state: { session_id: '01a250b9-97aa-7bb2-8db8-e1101c12d068', harness: 'codex', state: 'interrupted', hook_event: 'Interrupt' },
      end: 'withdrawn'
    })
    // and without --harness, the payload is recognised as Codex's
    expect(readSessionHook(text(INTERRUPT))).toMatchObject({ ok: true, state: { harness: 'codex', state: 'interrupted' } })
  })
})
