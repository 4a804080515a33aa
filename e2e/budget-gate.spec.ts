/**
 * A budget stops a real Claude Code session (issue 34): the operator's allowlist rule lets the
 * agent's `touch` calls run unasked, and a budget of 200 tokens covers the agent. The session's
 * first call comes after 160 tokens (the model's first reply, read from the transcript when the
 * hook runs) and runs; the turn's second reply takes it to 316, past the budget; the tool call of
 * the second turn, which the rule allows, then waits in the inbox with the budget on the request,
 * and runs once the operator raises the budget.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { call } from './api'
import { startAnthropicStandIn } from './anthropic-stand-in'
import { test, expect } from './fixtures'
import { claudePrompt, claudeProject, runClaude } from './harness-launch'
import { CLAUDE } from './harness-run'

interface Pending {
  id: string
  agent: string
  summary: string
  tool_input: { command?: string }
  budget: { label: string; limit_tokens: number | null; used_tokens: number } | null
}

test('Claude Code: past its agent’s budget, an allowlisted call waits in the inbox with the budget; raised, it runs', async ({
  page,
  request,
  demo,
  workDir
}) => {
  test.skip(!existsSync(CLAUDE), 'Claude Code CLI absent (.cache/claude-code: filled by .ci/run): skipping the real-harness e2e')
  test.setTimeout(300_000)
  mkdirSync(claudeProject(workDir), { recursive: true })
  const first = join(claudeProject(workDir), 'first-marker.txt')
  const second = join(claudeProject(workDir), 'second-marker.txt')
  const steps = [first, second].map((m) => ({ name: 'Bash', input: { command: `touch ${m}`, description: 'Create a marker file' } }))
  const standIn = await startAnthropicStandIn(steps, { perPrompt: true })
  await call(request, demo, 'approvals.ruleSave', {
    agent_pattern: 'e2e-claude',
    tool_name: 'Bash',
    input_pattern: 'touch *'
  })
  demo.cli(['budget', 'set', '--agent', 'e2e-claude', '--tokens', '200'])
  const claude = runClaude(demo, workDir, standIn, { sessions: true, stream: true })
  try {
    claude.write(claudePrompt('Create the first marker file.'))
    await expect.poll(() => existsSync(first), { timeout: 40_000 }).toBe(true)
    await expect.poll(() => claude.output(), { timeout: 60_000 }).toContain('"type":"result"')
    // the turn's usage recorded at its end: the agent's budget is crossed
    await expect
      .poll(() => (demo.cli(['budget', 'list']) as { budgets: { crossed: boolean }[] }).budgets[0]?.crossed ?? null, { timeout: 60_000 })
      .toBe(true)

    claude.write(claudePrompt('Create the second marker file.'))
    await expect
      .poll(
        async () => {
          const l = await call<{ pending: Pending[] }>(request, demo, 'approvals.list', {})
          return l.pending.find((p) => p.tool_input.command === `touch ${second}`)?.budget?.limit_tokens ?? null
        },
        { timeout: 90_000 }
      )
      .toBe(200)
    expect(existsSync(second)).toBe(false)
    await page.goto(`${demo.openUrl}#/approvals`)
    const row = page.locator('[data-testid^="approval-row-"]', { hasText: second })
    await expect(row).toContainText('over budget', { timeout: 30_000 })
    await row.click()
    await expect(page.getByTestId('budget-hold')).toContainText('Held: over budget agent e2e-claude today: 200 tokens')
    await expect(page.getByTestId('budget-hold')).toContainText('A rule allows this call')
    await page.screenshot({ path: 'e2e/artifacts/budget-gate/held-1280.png' })

    // raised: the rule's call runs
    demo.cli(['budget', 'set', '--agent', 'e2e-claude', '--tokens', '1000000'])
    await expect.poll(() => existsSync(second), { timeout: 90_000 }).toBe(true)
    const used = (demo.cli(['budget', 'list']) as { budgets: { crossed: boolean }[] }).budgets[0]
    expect(used?.crossed).toBe(false)
    expect(readFileSync(second, 'utf8')).toBe('')
  } finally {
    claude.kill()
    await standIn.close()
  }
})
