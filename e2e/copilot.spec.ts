/**
 * The real GitHub Copilot CLI (npm `@github/copilot` in the test-only `.cache/copilot/`, filled by
 * `.ci/run`) with no login: `COPILOT_OFFLINE=true` and `COPILOT_PROVIDER_BASE_URL` pointed at a
 * Chat Completions stand-in on 127.0.0.1, `--trust-folder` for the project's hooks file. Muster's
 * gate is installed the default way (`muster approve-hook install --harness copilot`:
 * `.github/hooks/muster.json`, `permissionRequest`). The scripted model runs one `bash` command
 * that creates a marker file; the operator decides in the dashboard, seeing the very command that
 * runs (Copilot sends it as `toolInput`). Allowed: it runs; denied: it does not, and the reason
 * reaches the model.
 */
import { existsSync } from 'node:fs'
import { startChatStandIn } from './chat-completions-stand-in'
import { test, expect } from './fixtures'
import { historyOf, markerRunner, openRequest } from './harness-run'
import { COPILOT, runCopilot } from './harness-launch'

test.skip(!existsSync(COPILOT), 'Copilot CLI absent (.cache/copilot: filled by .ci/run): skipping the real-harness e2e')

/** Copilot CLI against a Chat Completions stand-in (see `markerRunner`). */
const copilotRun = markerRunner('copilot-project', startChatStandIn, runCopilot)

test('Copilot CLI: the command shown is the command that runs; allowed in the dashboard, it runs', async ({ page, demo, workDir }) => {
  test.setTimeout(240_000)
  await copilotRun(demo, workDir, 'allowed', async ({ marker, standIn, harness: copilot }) => {
    // the inbox shows the command itself (`touch <marker>`), not `bash {}`
    await openRequest(page, demo, 'e2e-copilot', marker, 'copilot')
    await page.getByTestId('approve').click()
    const out = await copilot.done
    expect(out.code, out.out).toBe(0)
    expect(existsSync(marker)).toBe(true)
    expect(standIn.toolResults).toHaveLength(1)
    expect(historyOf(demo, 'e2e-copilot')[0]).toMatchObject({ harness: 'copilot', state: 'allow' })
  })
})

test('Copilot CLI: denied in the dashboard, the command does not run and the reason reaches the model', async ({ page, demo, workDir }) => {
  test.setTimeout(240_000)
  await copilotRun(demo, workDir, 'denied', async ({ marker, standIn, harness: copilot }) => {
    await openRequest(page, demo, 'e2e-copilot', marker, 'copilot')
    await page.getByTestId('approval-reason').fill('not from the copilot e2e')
    await page.getByTestId('deny').click()
    const out = await copilot.done
    expect(existsSync(marker)).toBe(false)
    expect(standIn.toolResults.map((t) => t.content).join('\n'), out.out).toContain('not from the copilot e2e')
    expect(historyOf(demo, 'e2e-copilot')[0]).toMatchObject({
      harness: 'copilot',
      state: 'deny',
      decision: { reason: 'not from the copilot e2e' }
    })
  })
})
