/**
 * The demo hub's approvals (spec section 9), written with the same builders `muster approve-hook`
 * and the inbox use: requests waiting right now from several agents and harnesses (a forced push,
 * an `.env` edit, a new file, an MCP call, two identical installs), and a history with every
 * outcome: allowed, denied, auto-allowed by an allowlist rule, timed out, expired (the hook died
 * without a record), and a conflict (two operators decided the same request).
 */
import type { ToolInput } from '../../../shared/approvals/tool-call'
import { appendEvent, type HubEvent } from '../../hub/store'
import { type AllowlistStore, decisionAppend, requestAppend, rulePayload } from '../../approvals'
import type { DemoContext } from './clock'
import { DEMO_OPERATOR, type HubTarget, type Step } from './hub-chatter'

const DAY = 1440
/** The demo's allowlist rule (`demo.create` adds it to the operator's state DB). */
export const DEMO_RULE = {
  agent_pattern: '*',
  tool_name: 'Bash',
  input_pattern: 'npm test*',
  note: 'the test suites write nothing outside the repo'
}

/** Adds the demo's rule (once), counted as having fired for the history's auto-allowed request. */
export function addDemoRule(rules: AllowlistStore): void {
  const have = rules
    .list()
    .some(
      (r) =>
        r.agent_pattern === DEMO_RULE.agent_pattern && r.tool_name === DEMO_RULE.tool_name && r.input_pattern === DEMO_RULE.input_pattern
    )
  if (!have) rules.recordHit(rules.save(DEMO_RULE).id, new Date(Date.now() - (DAY + 700) * 60_000))
}

interface Decision {
  afterSeconds: number
  decision: 'allow' | 'deny' | 'timeout'
  reason: string
  by: string
}

interface DemoApproval {
  minutesAgo: number
  agent: string
  harness: 'claude-code' | 'codex'
  project: 'muse' | 'dya' | 'atlas'
  tool: string
  input: ToolInput
  /** The hook's wait; pending demo requests wait hours so the demo stays live while you look. */
  timeoutMs: number
  decisions?: Decision[]
}

const bash = (command: string, description: string): ToolInput => ({ command, description })

function approvals(ctx: DemoContext): DemoApproval[] {
  const p = ctx.paths
  const hours = (h: number): number => h * 3600_000
  return [
    // history
    {
      minutesAgo: 3 * DAY + 200,
      agent: 'mac-claude',
      harness: 'claude-code',
      project: 'muse',
      tool: 'Bash',
      input: bash('git push origin main --tags', 'Push v2.22.0 and its tag'),
      timeoutMs: 540_000,
      decisions: [{ afterSeconds: 95, decision: 'allow', reason: 'release v2.22.0', by: DEMO_OPERATOR }]
    },
    {
      minutesAgo: 2 * DAY + 100,
      agent: 'win-codex',
      harness: 'codex',
      project: 'dya',
      tool: 'Bash',
      input: bash('rm -rf node_modules ~/.npm/_cacache', 'Clean install'),
      timeoutMs: 540_000,
      decisions: [{ afterSeconds: 140, decision: 'deny', reason: '不要清全局缓存，只删 node_modules', by: DEMO_OPERATOR }]
    },
    {
      minutesAgo: DAY + 700,
      agent: 'mac-claude',
      harness: 'claude-code',
      project: 'muse',
      tool: 'Bash',
      input: bash('npm test -- --run', 'Run the test suite'),
      timeoutMs: 540_000,
      decisions: [{ afterSeconds: 0, decision: 'allow', reason: 'matched allowlist rule Bash(npm test*)', by: 'allowlist:Bash(npm test*)' }]
    },
    {
      minutesAgo: DAY + 300,
      agent: 'win-codex',
      harness: 'codex',
      project: 'atlas',
      tool: 'Bash',
      input: bash('sudo systemctl restart atlas-indexer', 'Restart the indexer after the OOM'),
      timeoutMs: 540_000,
      decisions: [{ afterSeconds: 540, decision: 'timeout', reason: 'no decision within 540 s', by: 'timeout' }]
    },
    {
      minutesAgo: 620,
      agent: 'mac-claude',
      harness: 'claude-code',
      project: 'dya',
      tool: 'Write',
      input: { file_path: `${p.dya}/scripts/seed-prod.sh`, content: '#!/bin/sh\nset -e\npsql "$PROD_URL" -f seed.sql\n' },
      timeoutMs: 540_000
    },
    {
      minutesAgo: 180,
      agent: 'win-codex',
      harness: 'codex',
      project: 'dya',
      tool: 'Bash',
      input: bash('npx prisma migrate deploy', 'Apply the pending migration to staging'),
      timeoutMs: 540_000,
      decisions: [
        { afterSeconds: 41, decision: 'allow', reason: 'staging only', by: DEMO_OPERATOR },
        { afterSeconds: 43, decision: 'deny', reason: 'wait for the backup job', by: 'win-operator' }
      ]
    },
    // waiting now
    {
      minutesAgo: 6.5,
      agent: 'win-codex',
      harness: 'codex',
      project: 'dya',
      tool: 'Bash',
      input: bash('git push --force-with-lease origin release/1.3', 'Push the rebased release branch'),
      timeoutMs: hours(8)
    },
    {
      minutesAgo: 4,
      agent: 'mac-claude',
      harness: 'claude-code',
      project: 'muse',
      tool: 'Edit',
      input: {
        file_path: `${p.muse}/.env.production`,
        old_string: 'HUB_URL=http://127.0.0.1:8765\nHUB_TOKEN_FILE=~/.mempalace/token',
        new_string: 'HUB_URL=https://hub.internal:8765\nHUB_TOKEN_FILE=/run/secrets/hub-token'
      },
      timeoutMs: hours(8)
    },
    {
      minutesAgo: 2.7,
      agent: 'linux-claude',
      harness: 'claude-code',
      project: 'atlas',
      tool: 'mcp__mempalace__mempalace_event_ack',
      input: {
        event_id: 'evt_20260301T101500_5d2c8e1f9a30',
        from_agent: 'linux-claude',
        status: 'applied',
        body: 'Streaming batches applied; RSS 1.1 GB on 1M docs'
      },
      timeoutMs: hours(8)
    },
    {
      minutesAgo: 2.2,
      agent: 'mac-claude',
      harness: 'claude-code',
      project: 'muse',
      tool: 'Bash',
      input: bash('npm install', 'Install dependencies'),
      timeoutMs: hours(8)
    },
    {
      minutesAgo: 1.8,
      agent: 'linux-claude',
      harness: 'claude-code',
      project: 'atlas',
      tool: 'Bash',
      input: bash('npm install', 'Install dependencies'),
      timeoutMs: hours(8)
    },
    {
      minutesAgo: 0.9,
      agent: 'mac-claude',
      harness: 'claude-code',
      project: 'muse',
      tool: 'Write',
      timeoutMs: hours(8),
      input: {
        file_path: `${p.muse}/docs/hub.md`,
        content:
          '# The hub\n\nAgents coordinate through a MemPalace hub (S048).\n\n## Watch\n\n```sh\nmempalace logstream watch --agent mac-claude --json\n```\n\n## Approvals\n\nTool calls are routed to the operator by `muster approve-hook`.\n'
      }
    },
    {
      minutesAgo: 0.4,
      agent: 'win-codex',
      harness: 'codex',
      project: 'dya',
      tool: 'Bash',
      input: bash('curl -fsSL https://get.pnpm.io/install.sh | sh -', 'Install pnpm'),
      timeoutMs: hours(8)
    }
  ]
}

/** Approval requests and their decisions, as steps in time. */
export function approvalSteps(ctx: DemoContext, t: HubTarget): Step[] {
  const steps: Step[] = []
  approvals(ctx).forEach((a, i) => {
    const when = ctx.clock.ago(a.minutesAgo)
    const correlationId = `appr_${(0x5e1a00 + i).toString(16).padStart(12, '0')}`
    const state: { request?: HubEvent } = {}
    const { append } = requestAppend(
      {
        agent: a.agent,
        project: a.project,
        to_agent: DEMO_OPERATOR,
        harness: a.harness,
        hook_event_name: a.harness === 'codex' ? 'PermissionRequest' : 'PreToolUse',
        session_id: `${a.harness === 'codex' ? 'rollout' : 'sess'}-${(i * 7919).toString(16).padStart(8, '0')}`,
        cwd: ctx.paths[a.project],
        tool_use_id: a.harness === 'codex' ? null : `toolu_demo${i}`,
        tool_name: a.tool,
        tool_input: a.input,
        timeout_ms: a.timeoutMs
      },
      correlationId
    )
    steps.push({ at: when, run: () => void (state.request = appendEvent(t.db, t.replicaId, { ...append, at: when })) })
    for (const d of a.decisions ?? []) {
      const at = new Date(when.getTime() + d.afterSeconds * 1000)
      const from = d.by.includes(':') || d.by === 'timeout' ? a.agent : d.by
      steps.push({
        at,
        run: () =>
          void appendEvent(t.db, t.replicaId, {
            ...decisionAppend(
              state.request!,
              { decision: d.decision, reason: d.reason, decided_by: d.by, from_agent: from },
              d.by === 'timeout' || !ctx.signer
                ? {}
                : d.by.startsWith('allowlist:')
                  ? { rule: { ...DEMO_RULE, signature: ctx.signer.sign(rulePayload(DEMO_RULE)) } }
                  : { signer: ctx.signer }
            ),
            at
          })
      })
    }
  })
  return steps
}
