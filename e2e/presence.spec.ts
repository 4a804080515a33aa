/**
 * Presence in the dashboard, with Chromium's virtual authenticator (CDP `WebAuthn.addVirtualAuthenticator`)
 * standing in for a phone's passkey: the real `navigator.credentials` calls enrol it and sign with
 * it, and the server and the real `muster approve-hook` process check its proofs with the WebAuthn
 * library. The Overview and Settings say plainly that an agent can approve its own calls until an
 * authenticator and a policy protect them; from the phone layout (390 px) an allow that needs
 * presence takes one tap and the authenticator's prompt. Screenshots in both themes, axe clean.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { join, resolve } from 'node:path'
import type { CDPSession, Page } from '@playwright/test'
import { seriousViolations } from './axe'
import { test, expect, isolatedEnv, type Served } from './fixtures'

const ROOT = resolve(import.meta.dirname, '..')
const BIN = join(ROOT, 'bin', 'muster.cjs')

/** The dashboard at `localhost` (WebAuthn works on a host name, not on 127.0.0.1). */
const localUrl = (served: Served): string => served.openUrl.replace('//127.0.0.1:', '//localhost:')

/** A virtual platform authenticator that confirms at once (user present and verified). */
async function virtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; id: string }> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true
    }
  })
  return { cdp, id: authenticatorId }
}

function startHook(
  served: Served,
  palace: string,
  command: string
): { proc: ChildProcess; done: Promise<{ stdout: string; stderr: string }> } {
  const proc = spawn(
    process.execPath,
    [BIN, 'approve-hook', '--home', served.home, '--palace', palace, '--agent', 'mac-claude', '--timeout-ms', '120000'],
    {
      env: isolatedEnv(served.home)
    }
  )
  let stdout = ''
  let stderr = ''
  proc.stdout!.on('data', (d: Buffer) => (stdout += d))
  proc.stderr!.on('data', (d: Buffer) => (stderr += d))
  proc.stdin!.end(
    JSON.stringify({
      session_id: 's-e2e',
      transcript_path: '/home/op/.claude/projects/x/s.jsonl',
      cwd: '/work/app',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command, description: 'e2e' },
      tool_use_id: 'toolu_e2e'
    })
  )
  return { proc, done: new Promise((res) => proc.on('close', () => res({ stdout, stderr }))) }
}

async function shot(page: Page, name: string): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme)
    await page.screenshot({ path: join(ROOT, 'e2e', 'artifacts', `presence-${name}-${theme}.png`), fullPage: false })
  }
}

test('enrol a passkey, set the policy, and approve a risky call with one tap from the phone layout', async ({ page, served, workDir }) => {
  test.setTimeout(180_000)
  const palace = join(workDir, 'palace')
  served.cli(['hubs', 'add', palace, '--name', 'main', '--create'])
  await page.setViewportSize({ width: 1280, height: 900 })
  await virtualAuthenticator(page)
  await page.goto(localUrl(served))

  // nothing protects the approvals yet: the Overview says so
  const banner = page.getByTestId('presence-banner')
  await expect(banner).toContainText('An agent running as you can approve its own calls')
  await shot(page, 'overview-1280')

  await banner.getByRole('link').click()
  const panel = page.getByTestId('presence-panel')
  await expect(panel.getByTestId('presence-warning')).toBeVisible()
  // no policy without an authenticator
  await expect(panel.getByTestId('presence-policy-risky')).toBeDisabled()
  await panel.getByTestId('presence-name').fill('phone')
  await panel.getByTestId('presence-enrol').click()
  await expect(panel.getByTestId('presence-credential')).toHaveCount(1)
  await expect(panel.getByTestId('presence-credential')).toContainText('phone')
  await expect(panel.getByTestId('presence-credential')).toContainText('localhost')
  await panel.getByTestId('presence-policy-risky').check()
  await panel.getByTestId('presence-save').click()
  await expect(panel.getByTestId('presence-warning')).toHaveCount(0)
  expect(served.cli(['presence'])).toMatchObject({ policy: 'risky', warning: null, credentials: [{ name: 'phone' }] })
  expect(await seriousViolations(page, '[data-testid="settings-presence"]')).toEqual([])
  await page.getByTestId('settings-presence').scrollIntoViewIfNeeded()
  await shot(page, 'settings-1280')

  // the phone layout: a risky call waits for presence; one tap, then the authenticator's prompt
  await page.setViewportSize({ width: 390, height: 844 })
  const hook = startHook(served, palace, 'git push origin main')
  await page.goto(`${localUrl(served).replace(/\?.*$/, '')}#/approvals`)
  const row = page.locator('[data-testid^="approval-row-"]').first()
  await expect(row).toBeVisible({ timeout: 30_000 })
  await row.click()
  const detail = page.getByTestId('approval-detail')
  await expect(detail.getByTestId('presence-needed')).toContainText('push or publish: git push')
  await expect(detail.getByTestId('approve')).toContainText('Approve with authenticator')
  await shot(page, 'approve-390')
  await detail.getByTestId('approve').click()
  const ended = await hook.done
  expect(JSON.parse(ended.stdout).hookSpecificOutput.permissionDecision, ended.stderr).toBe('allow')
  const list = served.cli(['approvals', 'list', '--history', '5']) as { history: { state: string; decision: { presence?: boolean } }[] }
  expect(list.history[0]).toMatchObject({ state: 'allow', decision: { presence: true } })

  await page.goto(`${localUrl(served).replace(/\?.*$/, '')}#/settings`)
  await page.getByTestId('settings-presence').scrollIntoViewIfNeeded()
  await shot(page, 'settings-390')
  expect(await seriousViolations(page, '[data-testid="settings-presence"]')).toEqual([])
})

test('a one-tap allow of a risky call is refused without presence, and deny needs none', async ({ page, served, workDir }) => {
  test.setTimeout(120_000)
  const palace = join(workDir, 'palace')
  served.cli(['hubs', 'add', palace, '--name', 'main', '--create'])
  await virtualAuthenticator(page)
  await page.goto(localUrl(served))
  await page.goto(`${localUrl(served).replace(/\?.*$/, '')}#/settings?presence=enrol&name=laptop`)
  const panel = page.getByTestId('presence-panel')
  await expect(panel.getByTestId('presence-name')).toHaveValue('laptop')
  await panel.getByTestId('presence-enrol').click()
  await expect(panel.getByTestId('presence-credential')).toHaveCount(1)
  await panel.getByTestId('presence-policy-every-allow').check()
  await panel.getByTestId('presence-save').click()
  await expect(panel.getByTestId('presence-save')).toBeDisabled()

  const hook = startHook(served, palace, 'npm test')
  let id = ''
  await expect
    .poll(() => {
      const l = served.cli(['approvals', 'list']) as { pending: { id: string }[] }
      id = l.pending[0]?.id ?? ''
      return id
    })
    .not.toBe('')
  // the API refuses an allow without a proof (what `approvals decide` does when it cannot hand it over)
  const refused = await page.evaluate(
    async (requestId) =>
      (
        await fetch('/api/call/approvals.decide', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ hub: 'main', id: requestId, decision: 'allow' })
        })
      ).status,
    id
  )
  expect(refused).toBe(403)
  served.cli(['approvals', 'decide', id, 'deny', '--hub', 'main'])
  const ended = await hook.done
  expect(JSON.parse(ended.stdout).hookSpecificOutput.permissionDecision).toBe('deny')
})
