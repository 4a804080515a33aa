/**
 * "Not now" on the Approvals screen with the real `muster approve-hook` process waiting: the
 * request leaves the queue (and the needs-you count) for the chosen time without any decision,
 * the hook keeps waiting, the snoozed request can be looked at apart and brought back, and a
 * decision afterwards still reaches the hook.
 */
import { spawn } from 'node:child_process'
import { join, resolve } from 'node:path'
import { call } from './api'
import { test, expect, isolatedEnv } from './fixtures'

const BIN = join(resolve(import.meta.dirname, '..'), 'bin', 'muster.cjs')

test('Not now hides a request for a chosen time without denying it; brought back, it can be approved', async ({ page, demo, request }) => {
  test.setTimeout(120_000)
  const fleet = join(demo.home, '..', 'fleet')
  const hook = spawn(
    process.execPath,
    [BIN, 'approve-hook', '--home', demo.home, '--palace', join(fleet, 'hub'), '--agent', 'snooze-claude'],
    {
      env: isolatedEnv(demo.home)
    }
  )
  let stdout = ''
  hook.stdout.on('data', (d: Buffer) => (stdout += d))
  const done = new Promise<number | null>((r) => hook.on('close', (code) => r(code)))
  hook.stdin.end(
    JSON.stringify({
      session_id: 's-snooze',
      transcript_path: '/home/op/.claude/projects/x/s-snooze.jsonl',
      cwd: join(fleet, 'muse'),
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'terraform apply -auto-approve', description: 'e2e' }
    })
  )
  try {
    await page.goto(demo.openUrl)
    await page.getByTestId('nav-approvals').click()
    const row = page.locator('[data-testid^="approval-row-"]', { hasText: 'snooze-claude' })
    await expect(row).toBeVisible({ timeout: 30_000 })
    const before = await page.locator('[data-testid^="approval-row-"]').count()
    const needsBefore = (await call<{ count: number }>(request, demo, 'needs.list', {})).count
    await row.click()
    await page.getByTestId('snooze-for').selectOption('15')
    await page.getByTestId('snooze').click()
    await expect(row).toHaveCount(0)
    await expect(page.locator('[data-testid^="approval-row-"]')).toHaveCount(before - 1)
    await expect.poll(async () => (await call<{ count: number }>(request, demo, 'needs.list', {})).count).toBe(needsBefore - 1)
    // nothing was decided: the hook still waits
    const history = await call<{ history: { agent: string }[] }>(request, demo, 'approvals.list', {})
    expect(history.history.some((h) => h.agent === 'snooze-claude')).toBe(false)
    expect(hook.exitCode).toBeNull()
    expect(stdout).toBe('')
    // looked at apart, then brought back
    await page.getByTestId('show-snoozed').click()
    await expect(row).toBeVisible()
    await row.click()
    await expect(page.getByTestId('snoozed-note')).toContainText('Snoozed until')
    await page.getByTestId('wake').click()
    // the last snoozed one woken, the queue is shown again
    await expect(page.locator('[data-testid^="approval-row-"]', { hasText: 'snooze-claude' })).toBeVisible()
    await page.locator('[data-testid^="approval-row-"]', { hasText: 'snooze-claude' }).click()
    await page.getByTestId('approve').click()
    expect(await done).toBe(0)
    expect(JSON.parse(stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'allow' } })
  } finally {
    hook.kill('SIGKILL')
  }
})
