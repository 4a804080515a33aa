/**
 * The real Gemini CLI (npm `@google/gemini-cli` in the test-only `.cache/gemini-cli/`, filled by
 * `.ci/run`) pointed at a Gemini API stand-in on 127.0.0.1 (`GOOGLE_GEMINI_BASE_URL`), with
 * `muster approve-hook install --harness gemini` (its `BeforeTool` hook). `gemini -p --yolo` lets
 * the CLI itself run everything, so only Muster's hook stands between the model and the shell:
 * denied in the dashboard, the command does not run and the reason reaches the model; allowed, it
 * runs. The hub's history says which.
 */
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { Page } from '@playwright/test'
import { startGeminiStandIn, type GeminiStandIn } from './gemini-stand-in'
import { isolatedEnv, test, expect, type Served } from './fixtures'

const ROOT = resolve(import.meta.dirname, '..')
const BIN = join(ROOT, 'bin', 'muster.cjs')
const GEMINI = join(ROOT, '.cache', 'gemini-cli', 'node_modules', '.bin', 'gemini')

test.skip(!existsSync(GEMINI), 'Gemini CLI absent (.cache/gemini-cli: filled by .ci/run): skipping the real-harness e2e')

type History = { history: { agent: string; harness: string; state: string; decision: { reason: string } | null }[] }

/** A Gemini home (API-key auth, the project trusted), Muster's BeforeTool hook, and `gemini -p`. */
function runGemini(served: Served, workDir: string, standIn: GeminiStandIn) {
  const home = join(workDir, 'gemini-user')
  const project = join(workDir, 'gemini-project')
  mkdirSync(join(home, '.gemini'), { recursive: true })
  mkdirSync(project, { recursive: true })
  const settings = join(home, '.gemini', 'settings.json')
  writeFileSync(settings, JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }, null, 2) + '\n')
  writeFileSync(join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [project]: 'TRUST_FOLDER' }))
  const palace = join(served.home, '..', 'fleet', 'hub')
  execFileSync(
    process.execPath,
    [BIN, 'approve-hook', 'install', '--harness', 'gemini', '--agent', 'e2e-gemini', '--settings', settings].concat([
      '--home',
      served.home,
      '--palace',
      palace,
      '--project',
      'muse'
    ]),
    { env: isolatedEnv(served.home) }
  )
  const proc = spawn(GEMINI, ['-m', 'gemini-2.5-flash', '-p', 'Create the marker file.', '--yolo'], {
    cwd: project,
    env: { PATH: process.env.PATH, HOME: home, GEMINI_API_KEY: 'test-muster', GOOGLE_GEMINI_BASE_URL: standIn.url }
  })
  proc.stdin.end()
  let out = ''
  proc.stdout.on('data', (d: Buffer) => (out += d))
  proc.stderr.on('data', (d: Buffer) => (out += d))
  return {
    done: new Promise<{ code: number | null; out: string }>((r) => proc.on('close', (code) => r({ code, out }))),
    kill: () => proc.kill('SIGKILL')
  }
}

async function openRequest(page: Page, served: Served, marker: string): Promise<void> {
  await page.goto(served.openUrl)
  await page.getByTestId('nav-approvals').click()
  const row = page.locator('[data-testid^="approval-row-"]', { hasText: 'e2e-gemini' })
  await expect(row).toBeVisible({ timeout: 90_000 })
  await row.click()
  await expect(page.getByTestId('tool-preview')).toContainText(`touch ${marker}`)
  await expect(page.getByTestId('approval-detail')).toContainText('gemini')
}

test('Gemini CLI: denied in the dashboard, the command does not run and the reason reaches the model', async ({ page, demo, workDir }) => {
  test.setTimeout(240_000)
  const marker = join(workDir, 'gemini-project', 'denied-marker.txt')
  const standIn = await startGeminiStandIn(`touch ${marker}`)
  const gemini = runGemini(demo, workDir, standIn)
  try {
    await openRequest(page, demo, marker)
    await page.getByTestId('approval-reason').fill('not on this machine')
    await page.getByTestId('deny').click()
    const out = await gemini.done
    expect(out.code, out.out).toBe(0)
    expect(existsSync(marker)).toBe(false)
    expect(JSON.stringify(standIn.responses)).toMatch(/blocked: denied by .* in Muster: not on this machine/)
    const list = demo.cli(['approvals', 'list', '--history', '20']) as History
    expect(list.history.find((h) => h.agent === 'e2e-gemini')).toMatchObject({
      harness: 'gemini',
      state: 'deny',
      decision: { reason: 'not on this machine' }
    })
  } finally {
    gemini.kill()
    await standIn.close()
  }
})

test('Gemini CLI: allowed in the dashboard, the command runs', async ({ page, demo, workDir }) => {
  test.setTimeout(240_000)
  const marker = join(workDir, 'gemini-project', 'allowed-marker.txt')
  const standIn = await startGeminiStandIn(`touch ${marker}`)
  const gemini = runGemini(demo, workDir, standIn)
  try {
    await openRequest(page, demo, marker)
    await page.getByTestId('approve').click()
    const out = await gemini.done
    expect(out.code, out.out).toBe(0)
    expect(existsSync(marker)).toBe(true)
    expect(JSON.stringify(standIn.responses)).not.toContain('blocked')
    const list = demo.cli(['approvals', 'list', '--history', '20']) as History
    expect(list.history.find((h) => h.agent === 'e2e-gemini')).toMatchObject({ harness: 'gemini', state: 'allow' })
  } finally {
    gemini.kill()
    await standIn.close()
  }
})
