/**
 * The real Gemini CLI (npm `@google/gemini-cli` in the test-only `.cache/gemini-cli/`, filled by
 * `.ci/run`) pointed at a Gemini API stand-in on 127.0.0.1 (`GOOGLE_GEMINI_BASE_URL`), with
 * `muster approve-hook install --harness gemini` (its `BeforeTool` hook). `gemini -p --yolo` lets
 * the CLI itself run everything, so only Muster's hook stands between the model and the shell:
 * denied in the dashboard, the command does not run and the reason reaches the model; allowed, it
 * runs. The hub's history says which.
 */
import { existsSync } from 'node:fs'
import { startGeminiStandIn } from './gemini-stand-in'
import { test, expect } from './fixtures'
import { historyOf, markerRunner, openRequest } from './harness-run'
import { GEMINI, runGemini } from './harness-launch'

test.skip(!existsSync(GEMINI), 'Gemini CLI absent (.cache/gemini-cli: filled by .ci/run): skipping the real-harness e2e')

/** Gemini CLI against a Gemini API stand-in (see `markerRunner`). */
const geminiRun = markerRunner('gemini-project', startGeminiStandIn, runGemini)

test('Gemini CLI: denied in the dashboard, the command does not run and the reason reaches the model', async ({ page, demo, workDir }) => {
  test.setTimeout(240_000)
  await geminiRun(demo, workDir, 'denied', async ({ marker, standIn, harness: gemini }) => {
    await openRequest(page, demo, 'e2e-gemini', marker, 'gemini')
    await page.getByTestId('approval-reason').fill('not on this machine')
    await page.getByTestId('deny').click()
    const out = await gemini.done
    expect(out.code, out.out).toBe(0)
    expect(existsSync(marker)).toBe(false)
    expect(JSON.stringify(standIn.responses)).toMatch(/blocked: denied by .* in Muster: not on this machine/)
    expect(historyOf(demo, 'e2e-gemini')[0]).toMatchObject({
      harness: 'gemini',
      state: 'deny',
      decision: { reason: 'not on this machine' }
    })
  })
})

test('Gemini CLI: allowed in the dashboard, the command runs', async ({ page, demo, workDir }) => {
  test.setTimeout(240_000)
  await geminiRun(demo, workDir, 'allowed', async ({ marker, standIn, harness: gemini }) => {
    await openRequest(page, demo, 'e2e-gemini', marker, 'gemini')
    await page.getByTestId('approve').click()
    const out = await gemini.done
    expect(out.code, out.out).toBe(0)
    expect(existsSync(marker)).toBe(true)
    expect(JSON.stringify(standIn.responses)).not.toContain('blocked')
    expect(historyOf(demo, 'e2e-gemini')[0]).toMatchObject({ harness: 'gemini', state: 'allow' })
  })
})
