/**
 * The Notes screen against the demo fleet: atlas's squad notes in every body shape, the findings,
 * live updates when an agent writes a note, and promotion (dry run, then write once). Screens are
 * checked with axe (no serious or critical violations) and saved as screenshots, light and dark.
 */
import { seriousViolations } from './axe'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { settled } from './settle'

async function noSeriousViolations(page: Page): Promise<void> {
  expect(await seriousViolations(page, '[data-testid="screen-notes"]')).toEqual([])
}

interface Snapshot {
  repo: string
  counts: { notes: number; commits: number }
  commits: { sha: string; subject: string; bodies: { shape: string }[] }[]
}

test('the Notes screen shows atlas’s notes in every shape with their findings (light and dark)', async ({ page, demo }) => {
  const snap = demo.cli(['notes', 'list', '--project', 'atlas']) as Snapshot
  await page.goto(`${demo.openUrl}#/notes`)
  const screen = page.getByTestId('screen-notes')
  await expect(screen).toBeVisible()
  // nothing chosen yet: the screen opens on the first project with notes
  await expect(page.getByTestId('notes-project')).toHaveValue('atlas')
  await expect(page.getByTestId('notes-commits')).toHaveAttribute('data-count', String(snap.counts.commits))
  await expect(page.getByTestId('notes-summary')).toContainText(`${snap.counts.notes} notes on ${snap.counts.commits} commits`)
  await expect(page.getByTestId('notes-repo-finding')).toContainText("git config --add remote.origin.fetch 'refs/notes/*:refs/notes/*'")

  // the v0.4.1 release carries the appended, JSON Lines, pretty and object bodies
  const release = snap.commits.find((c) => c.subject.startsWith('fix: v0.4.1'))!
  await page.locator(`[data-testid="notes-commit"][data-sha="${release.sha}"]`).click()
  const detail = page.getByTestId('notes-detail')
  for (const shape of ['appended', 'jsonl', 'pretty'])
    await expect(detail.locator(`[data-testid="note-body"][data-shape="${shape}"]`).first()).toBeVisible()
  await expect(detail.getByTestId('note-shape').filter({ hasText: 'JSON Lines' })).toBeVisible()
  await expect(detail).toContainText('indexAll flushes each batch to SQLite as it fills (S050)')
  await expect(detail).toContainText("unknown note type 'benchmark'")

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await settled(page) // let the theme's colour transitions finish before axe and the screenshot
    await noSeriousViolations(page)
    await page.screenshot({ path: `e2e/artifacts/notes-atlas-${scheme}.png` })
  }

  // the initial import: a damaged body keeps its good note and shows the rest, a foreign namespace
  const first = snap.commits.find((c) => c.subject.startsWith('chore: initial import'))!
  await page.getByTestId('notes-commits').focus()
  await page.locator(`[data-testid="notes-commit"][data-sha="${first.sha}"]`).click()
  await expect(detail.getByTestId('note-unparseable')).toContainText('second pass interrupted')
  await expect(detail).toContainText('home-bot wrote in refs/notes/squad/linux-gemini: only linux-gemini writes its namespace')
  await page.emulateMedia({ colorScheme: 'light' })
  await settled(page)
  await page.screenshot({ path: 'e2e/artifacts/notes-findings-light.png' })

  // only commits with findings, by one click
  await page.getByTestId('notes-findings-toggle').click()
  await expect(page.getByTestId('notes-commits')).toHaveAttribute('data-count', '2')

  // a repository without notes says how agents write them, with nothing to promote
  await page.getByTestId('notes-project').selectOption('dya')
  await expect(screen).toContainText('No squad notes in dya’s repository yet')
  await expect(page.getByTestId('notes-promote')).toBeDisabled()
  await page.emulateMedia({ colorScheme: 'dark' })
  await settled(page)
  await noSeriousViolations(page)
  await page.screenshot({ path: 'e2e/artifacts/notes-empty-dark.png' })
})

test('a note an agent writes appears live; promotion shows its dry run, then writes decisions.md once', async ({ page, demo }) => {
  await page.goto(`${demo.openUrl}#/notes?project=atlas`)
  const snap = demo.cli(['notes', 'list', '--project', 'atlas']) as Snapshot
  await expect(page.getByTestId('notes-summary')).toContainText(`${snap.counts.notes} notes`)
  demo.cli([
    'notes',
    'write',
    '--project',
    'atlas',
    '--agent',
    'home-bot',
    '--type',
    'progress',
    '--content',
    '"nightly run green at 1M docs"'
  ])
  await expect(page.getByTestId('notes-summary')).toContainText(`${snap.counts.notes + 1} notes`)

  await page.getByTestId('notes-promote').click()
  const dialog = page.getByTestId('promote-dialog')
  await expect(dialog.getByTestId('promote-entries')).toContainText('### ')
  await expect(dialog.getByTestId('promote-entries')).toContainText('**By:** home-bot')
  await expect(dialog).toContainText('Archive 2 research notes')
  await noSeriousViolations(page)
  await page.screenshot({ path: 'e2e/artifacts/notes-promote-light.png' })
  const decisions = join(snap.repo, '.squad', 'decisions.md')
  const before = readFileSync(decisions, 'utf8')
  await dialog.getByTestId('promote-apply').click()
  await expect(dialog.getByTestId('promote-summary')).toContainText('Nothing to promote or archive.')
  await expect(dialog.getByTestId('promote-summary')).toContainText('1 already promoted · 2 already archived')
  const after = readFileSync(decisions, 'utf8')
  expect(after.startsWith(before)).toBe(true)
  expect(after.slice(before.length)).toMatch(
    /^\n### \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ: indexAll flushes each batch to SQLite as it fills \(S050\)\n\n\*\*By:\*\* home-bot\n/
  )
})
