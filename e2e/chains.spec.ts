/**
 * Invocation chains against the demo fleet: the board meeting in dya's gm.md and the advisors'
 * hub events produce the findings the CLI reports; the check form answers with the BLOCKED line.
 * Checked with axe and saved as screenshots, light and dark.
 */
import { seriousViolations } from './axe'
import { expect, test } from './fixtures'
import { settled } from './settle'

interface Findings {
  findings: { rule: string; level: string; line: number; source: { kind: string; file: string | null } }[]
  errors: number
  warnings: number
}

test('chain findings from role files and hub events, and the check form (light and dark)', async ({ page, demo }) => {
  const cli = demo.cli(['chain', 'findings']) as Findings
  expect(cli.findings.map((f) => f.rule).sort()).toEqual(['circular', 'depth', 'isolation', 'sibling-chain'])
  await page.goto(`${demo.openUrl}#/chains`)
  const list = page.getByTestId('chain-findings')
  await expect(list.getByTestId('chain-finding')).toHaveCount(cli.findings.length)
  await expect(list.locator('[data-rule="isolation"]')).toContainText('board-meeting phase 2 allows no invocations')
  await expect(list.locator('[data-rule="depth"]')).toContainText(
    '[BLOCKED: cannot invoke chro — maximum depth 2: cro → cfo → coo → chro is a third hop]'
  )
  await expect(list.locator('[data-rule="circular"]')).toContainText('from cfo')
  await expect(list.locator('[data-rule="sibling-chain"]')).toContainText('written: [CHAIN: ceo → cfo → cmo]')

  const form = page.getByTestId('chain-check')
  await form.getByTestId('chain-check-chain').fill('CRO→CFO→COO')
  await form.getByTestId('chain-check-target').fill('chro')
  await form.getByRole('button', { name: 'Check' }).click()
  await expect(page.getByTestId('chain-check-verdict')).toContainText('Blocked: depth')
  // the answer to paste, as one block: the BLOCKED line, then the assumption line
  await expect(page.getByTestId('chain-check-answer')).toHaveText(
    /^\[BLOCKED: cannot invoke chro — maximum depth 2: cro → cfo → coo → chro is a third hop\]\nState assumption used instead: /
  )

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await settled(page) // let the theme's colour transitions finish
    expect(await seriousViolations(page, '[data-testid="chains-screen"]')).toEqual([])
    await page.screenshot({ path: `e2e/artifacts/chains-${scheme}.png` })
  }

  // a role-file finding opens the role file at its line
  await list.locator('[data-rule="depth"] a').click()
  await expect(page).toHaveURL(/#\/role\/dya\/gm\?line=\d+$/)
})
