/**
 * The Patches screen against the demo fleet: the clean patch verified, applied with one click, its
 * test output live and its ack in the Timeline, the file changed in dya's worktree; the tampered
 * patch's Apply disabled with the reason; an apply in progress cancelled and reverted. Every state
 * is checked with axe and saved as screenshots, light and dark.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { seriousViolations } from './axe'
import { call } from './api'
import { expect, test } from './fixtures'
import { settled } from './settle'

// Each test scans and shoots several states in both themes (axe takes seconds a scan on a loaded
// machine) besides an apply with its tests: 30 s is too little for that much work.
test.describe.configure({ timeout: 240_000 })

async function noSeriousViolations(page: Page, testId: string): Promise<void> {
  expect(await seriousViolations(page, `[data-testid="${testId}"]`)).toEqual([])
}

async function shoot(page: Page, name: string, testId = 'screen-patches'): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await settled(page) // the theme's colour transitions
    await noSeriousViolations(page, testId)
    await page.screenshot({ path: `e2e/artifacts/patches-${name}-${scheme}.png` })
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

async function pick(page: Page, text: string): Promise<void> {
  await page.getByTestId('patch-row').filter({ hasText: text }).click()
  await expect(page.getByTestId('patch-detail').locator('h2')).toContainText(text)
}

test('the clean demo patch: verified, applied with one click, test output and the ack in the Timeline, file changed', async ({
  page,
  demo,
  workDir
}) => {
  await page.goto(`${demo.openUrl}#/patches`)
  await expect(page.getByTestId('screen-patches')).toBeVisible()
  await expect(page.getByTestId('patch-row').first()).toBeVisible()
  await shoot(page, 'inbox')

  await pick(page, 'isValid() checks expiresAt')
  await expect(page.getByTestId('verification-verdict')).toHaveText('Verified')
  await expect(page.getByTestId('apply-test-command')).toHaveValue('sh tests/expiry.sh')
  await expect(page.getByTestId('apply-button')).toBeEnabled()
  await expect(page.getByTestId('patch-raw')).toContainText('+  return cert.signature.length > 0 && now < cert.expiresAt')
  await shoot(page, 'verified')

  await page.getByTestId('apply-button').click()
  await expect(page.getByTestId('apply-run-status')).toContainText('Applied', { timeout: 60_000 })
  await expect(page.getByTestId('apply-output')).toContainText('ok 2 - isValid() is false after expiresAt')
  await expect(page.getByTestId('apply-output')).toContainText('2 passed')
  const ack = page.getByTestId('apply-ack')
  await expect(ack).toContainText('Acked applied as')
  const ackId = (await ack.locator('.mono').first().textContent())!.trim()
  // the preconditions follow the outcome: applied once, never again
  await expect(page.getByTestId('preconditions')).toContainText('Already applied')
  // success reads as success: no red "Apply is disabled" under the green result
  await expect(page.getByTestId('apply-disabled-reason')).toHaveCount(0)
  await expect(page.getByTestId('apply-button')).toBeDisabled()
  await shoot(page, 'applied')
  expect(readFileSync(join(workDir, 'fleet', 'dya', 'src/health/certificate.ts'), 'utf8')).toContain(
    'return cert.signature.length > 0 && now < cert.expiresAt\n'
  )

  // the ack in the Timeline (the demo hub, newest first)
  await page.goto(`${demo.openUrl}#/timeline`)
  const row = page.getByTestId(`timeline-row-${ackId}`)
  await expect(row).toBeVisible({ timeout: 30_000 })
  await expect(row).toContainText('applied')
})

test("the tampered patch's Apply is disabled with the reason; so is the forged quoted sha", async ({ page, demo }) => {
  await page.goto(`${demo.openUrl}#/patches`)
  await pick(page, 'batch size logged at start-up')
  await expect(page.getByTestId('verification-verdict')).toContainText('Refused')
  await expect(page.getByTestId('verification-refusals')).toContainText('sha256')
  await expect(page.getByTestId('apply-button')).toBeDisabled()
  await expect(page.getByTestId('apply-disabled-reason')).toContainText(/Apply is disabled: .*sha256/)
  await shoot(page, 'refused')

  await pick(page, 'S050 fix')
  await expect(page.getByTestId('apply-button')).toBeDisabled()
  await expect(page.getByTestId('apply-disabled-reason')).toContainText('quoted sha256')

  // keyboard: the list moves with j / k
  await page.getByTestId('patch-list').focus()
  const before = await page.getByTestId('patch-detail').locator('h2').textContent()
  await page.keyboard.press('j')
  await expect(page.getByTestId('patch-detail').locator('h2')).not.toHaveText(before!)
})

test('an apply in progress: live output, cancel, then the revert puts the worktree back', async ({ page, demo, request, workDir }) => {
  await call(request, demo, 'patch.setSettings', { project: 'dya', test_command: 'sh tests/expiry.sh && echo "slow suite…" && sleep 30' })
  const file = join(workDir, 'fleet', 'dya', 'src/health/certificate.ts')
  const before = readFileSync(file, 'utf8')
  await page.goto(`${demo.openUrl}#/patches`)
  await pick(page, 'isValid() checks expiresAt')
  await page.getByTestId('apply-button').click()
  await expect(page.getByTestId('apply-output')).toContainText('slow suite…', { timeout: 60_000 })
  await expect(page.getByTestId('apply-run-status')).toContainText('Running the tests')
  await shoot(page, 'running')

  await page.getByTestId('apply-cancel').click()
  await expect(page.getByTestId('apply-run-status')).toContainText('Failed', { timeout: 60_000 })
  await expect(page.getByTestId('apply-ack')).toContainText('Acked failed as')
  await page.getByTestId('apply-revert').click()
  await expect(page.getByTestId('apply-ack')).toContainText('Reverted')
  expect(readFileSync(file, 'utf8')).toBe(before)
})

test("the operator sends a project's working-tree diff to an agent; it arrives in the inbox byte-exactly", async ({
  page,
  demo,
  request,
  workDir
}) => {
  const file = join(workDir, 'fleet', 'dya', 'src/health/certificate.ts')
  writeFileSync(file, readFileSync(file, 'utf8') + '// checked by the operator\r\n')
  await page.goto(`${demo.openUrl}#/patches`)
  await page.getByTestId('patches-send').click()
  const dialog = page.getByTestId('submit-dialog')
  await expect(dialog).toBeVisible()
  await page.getByTestId('submit-project').selectOption('dya')
  await expect(page.getByTestId('submit-preview')).toContainText('1 file')
  await expect(page.getByTestId('submit-preview')).toContainText('carriage returns')
  await expect(page.getByTestId('submit-send')).toBeDisabled()
  await page.getByTestId('submit-agent').fill('win-codex')
  await expect(page.getByTestId('submit-send')).toBeEnabled()
  await shoot(page, 'submit', 'submit-dialog')
  await page.getByTestId('submit-send').click()
  await expect(dialog).toBeHidden()
  const row = page.getByTestId('patch-row').filter({ hasText: '→ win-codex' })
  await expect(row).toBeVisible({ timeout: 30_000 })
  const list = await call<{ patches: { event: { id: string; to_agent: string | null }; state: string }[] }>(request, demo, 'patch.list', {
    hub: 'demo'
  })
  const sent = list.patches.find((p) => p.event.to_agent === 'win-codex')!
  const got = await call<{ verification: { verdict: string; warnings: string[] }; content: string | null }>(request, demo, 'patch.get', {
    hub: 'demo',
    id: sent.event.id
  })
  expect(got.content).toContain('+// checked by the operator\r\n')
  expect(got.verification.verdict).not.toBe('refused')
})

test("the Overview's patches waiting: the Patches inbox's own count, and a link to it filtered to waiting", async ({ page, demo }) => {
  await page.goto(`${demo.openUrl}#/patches`)
  await expect(page.getByTestId('patch-row').first()).toBeVisible()
  await page.getByTestId('patches-state').selectOption('waiting')
  const waiting = await page.getByTestId('patch-row').count()
  const total = await page
    .getByTestId('patches-state')
    .selectOption('')
    .then(() => page.getByTestId('patch-row').count())
  expect(waiting).toBeGreaterThan(0)
  expect(waiting).toBeLessThan(total) // the demo has refused and applied patches too

  await page.goto(`${demo.openUrl}#/overview`)
  const count = page.getByTestId('hub-count-patches')
  await expect(count.locator('.hub-count-value')).toHaveText(String(waiting))
  await count.click()
  await expect(page).toHaveURL(/#\/patches\?(hub=[^&]+&)?state=waiting$/)
  await expect(page.getByTestId('screen-patches')).toBeVisible()
  await expect(page.getByTestId('patches-state')).toHaveValue('waiting')
  await expect(page.getByTestId('patch-row')).toHaveCount(waiting)
})

test('apply, then commit as the agent; the next patch to the same repository applies (before the commit its refusal names the fix)', async ({
  page,
  demo,
  request,
  workDir
}) => {
  const dya = join(workDir, 'fleet', 'dya')
  await page.goto(`${demo.openUrl}#/patches`)
  await pick(page, 'isValid() checks expiresAt')
  await page.getByTestId('apply-button').click()
  await expect(page.getByTestId('apply-run-status')).toContainText('Applied to dya', { timeout: 60_000 })
  await expect(page.getByTestId('apply-commit')).toContainText('not committed yet')

  // left uncommitted, the next patch to dya is refused, and the refusal says what resolves it
  await pick(page, 'label() shows the expiry date')
  await expect(page.getByTestId('apply-disabled-reason')).toContainText('Dirty worktree')
  await expect(page.getByTestId('apply-disabled-reason')).toContainText('the Commit button after an apply')
  await expect(page.getByTestId('apply-disabled-reason')).toContainText('Allow uncommitted changes')

  await pick(page, 'isValid() checks expiresAt')
  await page.getByTestId('apply-commit-button').click()
  await expect(page.getByTestId('apply-committed')).toContainText('Committed as')
  await expect(page.getByTestId('apply-committed')).toContainText('by win-codex')
  await shoot(page, 'committed')
  const log = execFileSync('git', ['-C', dya, 'log', '-1', '--format=%an%n%s%n%b'], { encoding: 'utf8' })
  expect(log).toMatch(/^win-codex\nisValid\(\) checks expiresAt/)
  expect(log).toContain('from win-codex, applied with Muster.')
  expect(execFileSync('git', ['-C', dya, 'status', '--porcelain'], { encoding: 'utf8' })).toBe('')

  // a second patch to dya (a new file beside the first change) applies on the clean worktree
  const content = [
    'diff --git a/docs/release-note.md b/docs/release-note.md',
    'new file mode 100644',
    '--- /dev/null',
    '+++ b/docs/release-note.md',
    '@@ -0,0 +1 @@',
    '+Certificates are valid only before expiresAt.',
    ''
  ].join('\n')
  await call(request, demo, 'patch.submit', {
    hub: 'demo',
    project: 'dya',
    to_agent: 'mac-claude',
    body: 'patch ready: release note for the expiry check',
    content
  })
  await page.reload()
  await pick(page, 'release note for the expiry check')
  await expect(page.getByTestId('apply-button')).toBeEnabled()
  await page.getByTestId('apply-button').click()
  await expect(page.getByTestId('apply-run-status')).toContainText('Applied to dya', { timeout: 60_000 })
  expect(readFileSync(join(dya, 'docs', 'release-note.md'), 'utf8')).toBe('Certificates are valid only before expiresAt.\n')
})
