/**
 * Directives, role viewer and memory search against the demo fleet: the UI shows what the files
 * say, and pickup / send / memory write from the UI change the files on disk.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import type { Directive, ProjectStatus, RoleDetail } from '../src/shared/api'
import { test, expect, type Served } from './fixtures'

type DirectivesOut = { directives: Directive[]; notices: unknown[] }

/** The row test id the screen uses: `directive-row-<project>-<id>-<target with / as _>`. */
function rowId(d: Directive): string {
  const project = (d.source ?? d.receipt ?? d.occurrences[0])!.project
  return `directive-row-${project}-${d.id}-${d.target.replace(/\//g, '_')}`
}

function projectPath(demo: Served, name: string): string {
  const { projects } = demo.cli(['status', '--project', name]) as { projects: ProjectStatus[] }
  return projects[0]!.path
}

async function openDirectives(page: Page, demo: Served): Promise<void> {
  await page.goto(demo.openUrl)
  await expect(page.getByTestId('project-card-muse')).toBeVisible()
  await page.getByTestId('nav-directives').click()
  await expect(page.getByTestId('screen-directives')).toBeVisible()
}

test('the directives list shows every demo directive with its state, and filters to pending', async ({ page, demo }) => {
  const { directives } = demo.cli(['directives']) as DirectivesOut
  expect(directives.length).toBeGreaterThanOrEqual(8)
  const states = new Set(directives.map((d) => d.state))
  expect(states.has('pending') && states.has('delivered')).toBe(true)

  await openDirectives(page, demo)
  for (const d of directives) {
    const row = page.getByTestId(rowId(d))
    await expect(row).toBeVisible()
    await expect(row).toHaveAttribute('data-state', d.state)
    await expect(row).toContainText(d.id)
  }
  const pending = directives.filter((d) => d.state === 'pending')
  await expect(page.getByTestId('state-count-pending')).toHaveText(String(pending.length))
  await expect(page.getByTestId('state-count-all')).toHaveText(String(directives.length))

  // Selecting a row opens its detail; j moves the selection down.
  const first = directives.find((d) => d.source && d.state === 'pending')!
  await page.getByTestId(rowId(first)).click()
  await expect(page.getByTestId('directive-detail')).toContainText(first.title)
  await expect(page.getByTestId(rowId(first))).toHaveAttribute('aria-selected', 'true')
  await page.screenshot({ path: 'e2e/artifacts/directives.png' })

  await page.getByTestId('directive-state-filter').getByText('Pending').click()
  const rows = page.locator('[data-testid^="directive-row-"]')
  await expect(rows).toHaveCount(pending.length)
  for (const d of pending) await expect(page.getByTestId(rowId(d))).toHaveAttribute('data-state', 'pending')
  const delivered = directives.find((d) => d.state === 'delivered')!
  await expect(page.getByTestId(rowId(delivered))).toHaveCount(0)
})

test('the screen filters with the same directive query as the CLI: words, state counts and order', async ({ page, demo }) => {
  // Two words found only in the receipts' occurrences (dya's gm.md), not in the senders' lines.
  const text = '健康证明 GM.md'
  const { directives, notices } = demo.cli(['directives', '--text', text]) as DirectivesOut
  expect(directives.map((d) => `${d.key} ${d.state}`)).toEqual(['S025→DYA/GM received', 'S049→DYA/GM delivered'])
  expect(notices).toEqual([])
  const everything = demo.cli(['directives']) as DirectivesOut
  expect(everything.notices).toHaveLength(6)

  await openDirectives(page, demo)
  await expect(page.getByTestId('notice-count')).toHaveText('· 6 notices')
  await page.keyboard.press('/')
  await expect(page.getByTestId('directive-text-filter')).toBeFocused()
  await page.keyboard.type(text)
  const rows = page.locator('[data-testid^="directive-row-"]')
  await expect(rows).toHaveCount(2)
  expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')))).toEqual(directives.map(rowId))
  await expect(page.getByTestId('state-count-all')).toHaveText('2')
  await expect(page.getByTestId('state-count-received')).toHaveText('1')
  await expect(page.getByTestId('state-count-delivered')).toHaveText('1')
  await expect(page.getByTestId('state-count-pending')).toHaveText('0')
  // notices follow the same query: none of them has both words
  await expect(page.getByTestId('notice-count')).toHaveCount(0)

  await page.getByTestId('directive-state-filter').getByText('Delivered').click()
  const delivered = (demo.cli(['directives', '--text', text, '--state', 'delivered']) as DirectivesOut).directives
  expect(delivered.map((d) => d.key)).toEqual(['S049→DYA/GM'])
  await expect(rows).toHaveCount(1)
  await expect(page.getByTestId(rowId(delivered[0]!))).toBeVisible()
  await page.screenshot({ path: 'e2e/artifacts/directives-text-filter.png' })
})

test('pickup from the UI writes the receipt and the ✅, and the row turns delivered', async ({ page, demo }) => {
  const { directives } = demo.cli(['directives', '--state', 'pending']) as DirectivesOut
  // A pending directive from strategy.md to one role of the same project (S052→QA in the demo).
  const d = directives.find(
    (x) => x.source?.role === 'strategy' && x.resolution.kind === 'role' && x.resolution.project === x.source.project
  )!
  expect(d, 'the demo has a pending strategy directive to a local role').toBeTruthy()
  const res = d.resolution as Extract<Directive['resolution'], { kind: 'role' }>
  const root = projectPath(demo, d.source!.project)
  const sourceFile = join(root, '.muse', d.source!.file)
  const targetFile = join(root, '.muse', res.file)
  const beforeTarget = readFileSync(targetFile, 'utf8')
  expect(beforeTarget).not.toMatch(new RegExp(`${d.id}→\\S+ \\([^)]*\\) — ✅ 已接收`))

  await openDirectives(page, demo)
  const row = page.getByTestId(rowId(d))
  await row.click()
  await expect(page.getByTestId('pickup-button')).toBeEnabled()
  // Keyboard path: p asks for confirmation, Enter confirms.
  await page.keyboard.press('p')
  await expect(page.getByTestId('pickup-confirm')).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('pickup-result')).toBeVisible()
  await expect(page.getByTestId('pickup-result')).toHaveAttribute('data-outcome', 'picked-up')
  await expect(row).toHaveAttribute('data-state', 'delivered')
  await expect(page.getByTestId('pickup-button')).toBeDisabled()

  const source = readFileSync(sourceFile, 'utf8').split('\n')[d.source!.line - 1]!
  expect(source).toContain(`${d.id}→`)
  expect(source).toContain('✅')
  expect(source).not.toContain('🟡')
  expect(source).toMatch(/已传递 \d{4}-\d{2}-\d{2} \d{2}:\d{2}/)
  const target = readFileSync(targetFile, 'utf8')
  expect(target).toMatch(new RegExp(`### ${d.id}→\\S+ \\([^)]*\\) — ✅ 已接收 \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}`))
  expect(target).toContain('## 📡')
})

test('send from the UI writes the directive into the sender’s own file, errors inline', async ({ page, demo }) => {
  const root = projectPath(demo, 'muse')
  const strategy = join(root, '.muse', 'strategy.md')
  const stamp = `E2E发送-${Date.now()}`
  await openDirectives(page, demo)

  await page.keyboard.press('n')
  const form = page.getByTestId('send-form')
  await expect(form).toBeVisible()
  await expect(page.getByTestId('send-to')).toBeFocused()
  await expect(page.getByTestId('send-project')).toHaveValue('muse')
  await expect(page.getByTestId('send-from')).toHaveValue('strategy')

  // An unknown target is refused by the API and shown inline; nothing is written.
  const before = readFileSync(strategy, 'utf8')
  await page.getByTestId('send-to').fill('NOPE/QA')
  await page.getByTestId('send-title').fill(stamp)
  await page.getByTestId('send-submit').click()
  await expect(page.getByTestId('send-error')).toContainText(/unknown target/i)
  // An invocation rule violation in the body is refused too.
  await page.getByTestId('send-to').fill('ATLAS/QA')
  await page.getByTestId('send-body').fill('[CHAIN:strategy→qa]\n[INVOKE:strategy|loop back]')
  await page.getByTestId('send-submit').click()
  await expect(page.getByTestId('send-error')).toContainText(/circular/i)
  expect(readFileSync(strategy, 'utf8')).toBe(before)

  await page.getByTestId('send-body').fill('第一行 body\nsecond line')
  await page.screenshot({ path: 'e2e/artifacts/send-directive.png' })
  await page.getByTestId('send-submit').click()
  await expect(page.getByTestId('send-result')).toBeVisible()
  const id = (await page.getByTestId('send-assigned-id').textContent())!.trim()
  expect(id).toMatch(/^S\d{3}$/)

  const after = readFileSync(strategy, 'utf8')
  expect(after).toContain(`📡 **${id}→ATLAS/QA**: 🟡 **${stamp}**`)
  expect(after).toContain('> 第一行 body')
  await page.getByRole('button', { name: 'Done' }).click()
  const row = page.getByTestId(`directive-row-muse-${id}-ATLAS_QA`)
  await expect(row).toBeVisible()
  await expect(row).toHaveAttribute('data-state', 'pending')
})

test('the role viewer renders a role file with outline, TODO progress and directives', async ({ page, demo }) => {
  const detail = demo.cli(['role', 'build', '--project', 'muse']) as RoleDetail
  expect(detail.todos.open + detail.todos.done).toBeGreaterThan(0)
  await page.goto(demo.openUrl)
  // From the overview: the role name links to the viewer.
  await page.getByTestId('role-link-muse-build').click()
  const viewer = page.getByTestId('role-viewer')
  await expect(viewer).toBeVisible()
  expect(page.url()).toContain('#/role/muse/build')

  const outline = page.getByTestId('role-outline')
  for (const s of detail.sections.slice(0, 5)) await expect(outline.locator(`[data-line="${s.line}"]`)).toBeVisible()
  const progress = page.getByTestId('todo-progress')
  await expect(page.getByTestId('todo-total')).toHaveText(`${detail.todos.done}/${detail.todos.open + detail.todos.done}`)
  for (const g of detail.todos.groups) if (g.group) await expect(progress).toContainText(g.group)

  const md = page.getByTestId('role-markdown')
  await expect(md.locator('h1').first()).toBeVisible()
  await expect(md.locator('table').first()).toBeVisible()
  await expect(md.locator('input[type="checkbox"]').first()).toBeVisible()
  // Raw HTML (the L0 comment) is not rendered; Chinese headers are.
  await expect(md).not.toContainText('<!--')
  await expect(md).toContainText('待办')
  if (detail.directives.length) await expect(md.locator('.md-directive').first()).toBeVisible()
  await expect(page.getByTestId('role-l0')).toContainText(detail.l0?.version ?? 'no L0')

  // Clicking an outline entry scrolls its header into view.
  const todo = detail.sections.find((s) => s.kind === 'todo')!
  await outline.locator(`[data-line="${todo.line}"]`).click()
  await expect(md.locator(`[data-line="${todo.line}"]`).first()).toBeInViewport()
  await page.waitForTimeout(700) // let the smooth scroll settle before the screenshot
  await page.screenshot({ path: 'e2e/artifacts/role-viewer.png' })
})

test('memory search finds a Chinese term, and a note written from the UI is found', async ({ page, demo }) => {
  await openDirectives(page, demo)
  await page.getByTestId('tab-memory').click()
  const screen = page.getByTestId('memory-search')
  await expect(screen).toBeVisible()
  await page.getByTestId('memory-query').fill('换行')
  const results = page.getByTestId('memory-result')
  await expect(results.first()).toBeVisible()
  await expect(results.first().locator('mark').first()).toHaveText('换行')
  expect(await results.count()).toBeGreaterThanOrEqual(1)
  await page.screenshot({ path: 'e2e/artifacts/memory-search.png' })

  // Long-term only searches MEMORIES.md.
  await screen.getByText('Long-term').click()
  await expect(results.first()).toContainText('MEMORIES.md')

  const note = `E2E记忆-${Date.now()}`
  await page.getByTestId('memory-write-project').selectOption('atlas')
  await page.getByTestId('memory-write-text').fill(`- 操作员笔记 ${note}`)
  await page.getByTestId('memory-write-submit').click()
  await expect(page.getByTestId('memory-write-result')).toContainText(/memory\/\d{4}-\d{2}-\d{2}\.md/)
  await screen.getByText('All', { exact: true }).click()
  await page.getByTestId('memory-query').fill(note)
  await expect(results).toHaveCount(1)
  await expect(results.first()).toContainText('atlas')
})

test('a directive an agent writes on disk appears live, and the open role file follows', async ({ page, demo }) => {
  const root = projectPath(demo, 'muse')
  const strategy = join(root, '.muse', 'strategy.md')
  await openDirectives(page, demo)
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-status', 'live')
  const title = `磁盘写入-${Date.now()}`
  writeFileSync(strategy, `${readFileSync(strategy, 'utf8')}\n📡 **S777→ATLAS/OPS**: 🟡 **${title}**\n> 由 agent 直接写入\n`)
  const row = page.getByTestId('directive-row-muse-S777-ATLAS_OPS')
  await expect(row).toBeVisible()
  await expect(row).toHaveAttribute('data-state', 'pending')
  await expect(row).toContainText(title)

  await row.dblclick()
  await expect(page.getByTestId('role-viewer')).toBeVisible()
  await expect(page.getByTestId('role-markdown')).toContainText(title)
  writeFileSync(strategy, readFileSync(strategy, 'utf8').replace(title, `${title}-已改`))
  await expect(page.getByTestId('role-markdown')).toContainText(`${title}-已改`)
})

test('keyboard pickup with no row clicked: the picked directive stays in view and the confirmation is shown', async ({ page, demo }) => {
  await openDirectives(page, demo)
  const first = page.locator('[data-testid^="directive-row-"]').first()
  const firstId = await first.getAttribute('data-testid')
  const detail = page.getByTestId('directive-detail')
  const label = await detail.getAttribute('aria-label')
  await page.locator('body').click({ position: { x: 5, y: 5 } }) // no row clicked: the first is shown selected
  await page.keyboard.press('p')
  await expect(page.getByTestId('pickup-confirm')).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('pickup-result')).toBeVisible()
  await expect(page.getByTestId('pickup-result')).toHaveAttribute('data-outcome', 'picked-up')
  // the list re-sorted (the picked one is no longer pending), yet the pane still shows it
  await expect(detail).toHaveAttribute('aria-label', label!)
  await expect(page.getByTestId(firstId!)).not.toHaveAttribute('data-state', 'pending')
  await expect(page.getByTestId(firstId!)).toHaveAttribute('aria-selected', 'true')
  await page.waitForTimeout(1000)
  await expect(page.getByTestId('pickup-result')).toBeVisible()
})
