/**
 * The real Codex CLI (npm `@openai/codex` in the test-only `.cache/codex/`, filled by `.ci/run`)
 * against a Responses API stand-in on 127.0.0.1 (a `model_providers` entry with `base_url` and
 * `wire_api = "responses"`), with `muster approve-hook install --harness codex --mode exec`: the
 * deny-only PreToolUse gate `codex exec` needs, since it never asks. The scripted model runs one
 * `exec_command` that creates a marker file; the operator decides in the dashboard. Denied: the
 * command does not run and the reason reaches the model; allowed: it runs. The hub's history says
 * which. (`--dangerously-bypass-hook-trust` stands in for the one-time trust review in /hooks.)
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { startResponsesStandIn } from './responses-stand-in'
import { test, expect } from './fixtures'
import { historyOf, markerRunner, openRequest } from './harness-run'
import { CODEX, runCodex } from './harness-launch'

test.skip(!existsSync(CODEX), 'Codex CLI absent (.cache/codex: filled by .ci/run): skipping the real-harness e2e')

/** `codex exec` against a Responses API stand-in (see `markerRunner`). */
const codexExecRun = markerRunner('codex-project', startResponsesStandIn, (served, workDir, standIn) =>
  runCodex(served, workDir, standIn, 'exec')
)

test('codex exec: denied in the dashboard, the command does not run, the reason reaches the model, the hub says deny', async ({
  page,
  demo,
  workDir
}) => {
  test.setTimeout(240_000)
  await codexExecRun(demo, workDir, 'denied', async ({ marker, standIn, harness: codex }) => {
    await openRequest(page, demo, 'e2e-codex', marker, 'codex')
    await page.getByTestId('approval-reason').fill('not from exec mode')
    await page.getByTestId('deny').click()
    const out = await codex.done
    expect(out.code, out.out).toBe(0)
    expect(existsSync(marker)).toBe(false)
    expect(standIn.outputs).toEqual([
      {
        call_id: 'call_muster_e2e',
        output: expect.stringMatching(/blocked by PreToolUse hook: denied by .* in Muster: not from exec mode/)
      }
    ])
    expect(historyOf(demo, 'e2e-codex')[0]).toMatchObject({
      harness: 'codex',
      state: 'deny',
      decision: { reason: 'not from exec mode' }
    })
  })
})

test('codex exec: allowed in the dashboard, the command runs and the hub says allow', async ({ page, demo, workDir }) => {
  test.setTimeout(240_000)
  await codexExecRun(demo, workDir, 'allowed', async ({ marker, standIn, harness: codex }) => {
    await openRequest(page, demo, 'e2e-codex', marker, 'codex')
    await page.getByTestId('approve').click()
    const out = await codex.done
    expect(out.code, out.out).toBe(0)
    expect(existsSync(marker)).toBe(true)
    // the gate printed nothing for the allow (Codex rejects an allow there): the command ran as usual
    expect(out.out).not.toContain('Hook failed')
    expect(standIn.outputs).toHaveLength(1)
    expect(standIn.outputs[0]!.output).not.toContain('blocked')
    expect(historyOf(demo, 'e2e-codex')[0]).toMatchObject({ harness: 'codex', state: 'allow' })
  })
})

test('interactive Codex (in a pseudo-terminal): its PermissionRequest, allowed then denied in the dashboard', async ({
  page,
  demo,
  workDir
}) => {
  test.setTimeout(300_000)
  // allowed: the command runs outside the sandbox
  const marker = join(workDir, 'codex-project', 'interactive-marker.txt')
  let standIn = await startResponsesStandIn(`touch ${marker}`, true)
  let codex = runCodex(demo, workDir, standIn, 'interactive')
  try {
    await openRequest(page, demo, 'e2e-codex', marker, 'codex')
    await page.getByTestId('approve').click()
    await expect.poll(() => existsSync(marker), { timeout: 60_000 }).toBe(true)
    await expect.poll(() => standIn.outputs.length, { timeout: 60_000 }).toBe(1)
    expect(standIn.outputs[0]!.output).not.toMatch(/Rejected/)
  } finally {
    codex.kill()
    await standIn.close()
  }
  expect(historyOf(demo, 'e2e-codex')[0]).toMatchObject({ harness: 'codex', state: 'allow' })

  // denied: nothing runs, and Codex tells the model the operator's reason
  const second = join(workDir, 'codex-project', 'interactive-denied.txt')
  standIn = await startResponsesStandIn(`touch ${second}`, true)
  codex = runCodex(demo, workDir, standIn, 'interactive')
  try {
    await openRequest(page, demo, 'e2e-codex', second, 'codex')
    await page.getByTestId('approval-reason').fill('not outside the sandbox')
    await page.getByTestId('deny').click()
    await expect.poll(() => standIn.outputs.length, { timeout: 60_000 }).toBe(1)
    expect(standIn.outputs[0]!.output).toMatch(/Rejected.*denied by .* in Muster: not outside the sandbox/)
    expect(existsSync(second)).toBe(false)
  } finally {
    codex.kill()
    await standIn.close()
  }
  expect(historyOf(demo, 'e2e-codex').map((h) => h.state)).toEqual(['deny', 'allow'])
})
