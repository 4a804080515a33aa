/**
 * Rule conditions on where a call comes from, through the hook with a real state DB and hub: a
 * tool of a repository's MCP server (`mcp_server.source` project) is allowed only by a rule naming
 * that server, and an `ask:subagent <type>` rule keeps every call of that subagent type for the
 * operator; the request says why. The payload is Claude Code's as its published types shape it.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { closeAfterEach, openTestHub, openTestRules } from '../../../test/helpers/hook-hub'
import { testKeys } from '../../../test/helpers/operator-key'
import type { HubEventEnvelope } from '../../shared/contract/hub-types'
import { EventType } from '../../shared/contract/hub-vocabulary'
import { decisionAppend } from './approval-events'
import { runApproveHook, type HookContext } from './approve-hook'

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'harness-payloads', 'claude-code', 'sdk-0.3.337')
/** A code-reviewer subagent calling mcp__github__create_issue of the project's .mcp.json server `github`. */
const subagentMcp = JSON.parse(readFileSync(join(FIXTURES, 'permission-request-mcp-subagent.json'), 'utf8')) as Record<string, unknown>
const operator = testKeys()

const closers = closeAfterEach()

function setup() {
  const { hub } = openTestHub(closers, 2000)
  const { rules } = openTestRules(closers, operator)
  const ctx: HookContext = { hub, rules, trust: operator.trust, operator: 'desk-muster', projectFor: () => 'muse', warn: () => undefined }
  return { hub, rules, ctx }
}

/** Runs the hook on `payload`: allowed by a rule at once, or its request (then denied by the operator). */
async function through(s: ReturnType<typeof setup>, payload: Record<string, unknown>) {
  const run = runApproveHook(JSON.stringify(payload), { agent: 'mac-claude', timeoutMs: 60_000 }, s.ctx)
  const first = await Promise.race([run, new Promise<null>((r) => setTimeout(() => r(null), 50))])
  let request: HubEventEnvelope | undefined
  for (;;) {
    const page = await s.hub.list({ type: EventType.approvalRequest, order: 'desc', limit: 1 })
    request = page.events[0]
    const decided = request ? (await s.hub.list({ correlation_id: request.correlation_id!, type: EventType.approvalDecision })).events : []
    if (request && (decided.length || first)) return { out: await run, request }
    if (request && !decided.length) break
    await new Promise((r) => setTimeout(r, 10))
  }
  await s.hub.append(
    decisionAppend(
      request,
      { decision: 'deny', reason: 'no', decided_by: 'desk-muster', from_agent: 'desk-muster' },
      { signer: operator.signer }
    )
  )
  return { out: await run, request }
}

describe('rule conditions on provenance, through the hook', () => {
  it('mcp__* never allows a project MCP server’s tool; mcp__github__* does', async () => {
    const s = setup()
    const wide = s.rules.save({ agent_pattern: 'mac-*', tool_name: 'mcp__*', input_pattern: '*' })
    const asked = await through(s, subagentMcp)
    expect(asked.out.verdict).toBe('deny')
    expect(asked.request.metadata.rule_declined).toBe(
      `rule #${wide.id} mcp__*(*) for mac-* does not allow it: the tool is MCP server github's, configured by the project's .mcp.json: only a rule naming that server (mcp__github__...) allows its tools`
    )
    s.rules.save({ agent_pattern: 'mac-*', tool_name: 'mcp__github__*', input_pattern: '*' })
    const allowed = await through(s, subagentMcp)
    expect(allowed.out.verdict).toBe('allow')
    expect(allowed.request.metadata.rule_declined).toBeUndefined()
  })

  it('ask:subagent code-reviewer keeps the call for the operator, though a rule names its server', async () => {
    const s = setup()
    s.rules.save({ agent_pattern: 'mac-*', tool_name: 'mcp__github__*', input_pattern: '*' })
    const ask = s.rules.save({ agent_pattern: '*', tool_name: '*', input_pattern: 'ask:subagent code-reviewer' })
    const asked = await through(s, subagentMcp)
    expect(asked.out.verdict).toBe('deny')
    expect(asked.request.metadata.rule_declined).toBe(
      `rule #${ask.id} keeps it for you: every call from a code-reviewer subagent asks you (rule *(ask:subagent code-reviewer))`
    )
    // the same call from another subagent type is the rule's again
    const other = await through(s, { ...subagentMcp, agent_type: 'test-runner' })
    expect(other.out.verdict).toBe('allow')
  })
})
