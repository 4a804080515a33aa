/**
 * Calls a budget held, let go once it no longer holds them: when the operator raises a budget,
 * removes it or lets a session go on, every pending request the hook marked as held by a budget
 * (its metadata `budget`) whose call no budget holds any more, and that an allowlist rule still
 * allows exactly as the request shows it, gets the operator's signed allow, so the agent's call
 * runs as the rule would have let it. A request no rule allows stays for the operator: raising a
 * budget never approves what the operator was asked about anyway.
 */
import { homedir } from 'node:os'
import { ruleLabel } from '../../shared/approvals/allow-rules'
import type { ApprovalsService } from '../approvals'
import type { UsageService } from './usage-service'

/** Allows the held calls no budget holds any more; returns how many. */
export async function releaseHeldCalls(usage: UsageService, approvals: ApprovalsService, reason: string): Promise<number> {
  const { pending } = await approvals.list({})
  let released = 0
  for (const p of pending) {
    const hold = p.budget
    if (!hold || hold.rule_id === null || p.tool_input_truncated) continue
    if (usage.gate.holdFor({ session_id: p.session_id, agent: p.agent, project: hold.project })) continue
    const rule = approvals.rules.firstMatch({
      agent: p.agent,
      tool_name: p.tool_name,
      tool_input: p.tool_input,
      cwd: p.cwd,
      home: homedir(),
      provenance: p.provenance ?? null
    })
    if (!rule) continue
    try {
      await approvals.decide({
        palace: p.palace,
        id: p.correlation_id,
        decision: 'allow',
        reason: `${reason}; allowlist rule ${ruleLabel(rule)}`
      })
      released++
    } catch {
      // decided meanwhile, or its hook stopped waiting: nothing to let go
    }
  }
  return released
}
