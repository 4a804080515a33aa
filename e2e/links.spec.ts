/**
 * Linked screens on the demo fleet (issue 20, point 4): the Timeline's status column shows a task's
 * folded state; a patch.ready links to its patch and back; an approval to its thread; a directive
 * to its project's role file.
 */
import { call } from './api'
import { test, expect } from './fixtures'

interface Task {
  correlation_id: string
  state: string
  stuck: boolean
  request: { id: string } | null
}

test('the Timeline shows each task.request with its folded task state, not the request’s own "open"', async ({ page, demo, request }) => {
  const { tasks } = await call<{ tasks: Task[] }>(request, demo, 'hub.tasks', { hub: 'demo', limit: 500 })
  const shown = tasks.filter((t) => t.request)
  expect(shown.some((t) => t.stuck || t.state !== 'open')).toBe(true)
  await page.goto(`${demo.openUrl}#/timeline?hub=demo&type=task.request`)
  await expect(page.getByTestId('timeline-list')).toBeVisible()
  for (const t of shown) {
    const row = page.getByTestId(`timeline-row-${t.request!.id}`)
    await expect(row.locator('.tl-status')).toHaveText(t.stuck ? 'stuck' : t.state)
  }
})

test('a patch.ready opens its patch, and the patch opens its event in the Timeline', async ({ page, demo, request }) => {
  const { patches } = await call<{ patches: { event: { id: string; body: string } }[] }>(request, demo, 'patch.list', { hub: 'demo' })
  const p = patches[0]!.event
  await page.goto(`${demo.openUrl}#/timeline?hub=demo&event=${p.id}`)
  await expect(page.getByTestId('event-detail')).toBeVisible()
  await page.getByTestId('open-patch').click()
  await expect(page.getByTestId('screen-patches')).toBeVisible()
  await expect(page.getByTestId('patch-detail')).toContainText(p.id)
  await page.getByTestId('patch-in-timeline').click()
  await expect(page.getByTestId('screen-timeline')).toBeVisible()
  await expect(page.getByTestId('event-detail')).toHaveAttribute('aria-label', `Event ${p.id}`)
})

test('an approval opens its thread; a directive opens its project’s role file', async ({ page, demo }) => {
  await page.goto(`${demo.openUrl}#/approvals`)
  await expect(page.getByTestId('approval-list')).toBeVisible()
  await page.getByTestId('approval-thread').click()
  await expect(page.getByTestId('screen-timeline')).toBeVisible()
  await expect(page.getByTestId('thread-view')).toBeVisible()
  await expect(page.getByTestId('thread-step').first()).toBeVisible()

  await page.goto(`${demo.openUrl}#/directives`)
  await page.locator('[data-testid^="directive-row-muse-"]').first().click()
  const detail = page.getByTestId('directive-detail')
  await expect(detail).toBeVisible()
  await detail.getByTestId('open-role-file').click()
  await expect(page.getByTestId('role-viewer')).toBeVisible()
  expect(page.url()).toMatch(/#\/role\/muse\//)
})

test('the palette finds directive ids, patches, approvals, agents, projects, roles, chains and memory', async ({ page, demo, request }) => {
  const { patches } = await call<{ patches: { event: { id: string } }[] }>(request, demo, 'patch.list', { hub: 'demo' })
  await page.goto(demo.openUrl)
  await expect(page.getByTestId('screen-overview')).toBeVisible()
  const find = async (text: string, testId: string) => {
    await page.keyboard.press('Control+k')
    await expect(page.getByTestId('command-palette')).toBeVisible()
    await page.keyboard.type(text)
    await expect(page.getByTestId(testId)).toBeVisible()
    await page.getByTestId(testId).click()
    await expect(page.getByTestId('command-palette')).toHaveCount(0)
  }
  await find('S054', 'palette-directive-S054')
  await expect(page.getByTestId('directive-detail')).toContainText('S054')
  await find('chain', 'palette-chains')
  await expect(page.getByTestId('chains-screen')).toBeVisible()
  await find('memory', 'palette-memory')
  await expect(page.getByTestId('memory-search')).toBeVisible()
  await find(patches[0]!.event.id, `palette-patch-${patches[0]!.event.id}`)
  await expect(page.getByTestId('patch-detail')).toContainText(patches[0]!.event.id)
  await find('approval win-codex', 'palette-approval-' + (await firstApproval()))
  await expect(page.getByTestId('screen-approvals')).toBeVisible()
  await find('home-bot', 'palette-agent-home-bot')
  await expect(page.getByTestId('screen-timeline')).toBeVisible()
  expect(page.url()).toContain('from_agent=home-bot')
  await find('atlas', 'palette-project-atlas')
  await find('muse/build', 'palette-role-muse-build')
  await expect(page.getByTestId('role-viewer')).toBeVisible()

  async function firstApproval(): Promise<string> {
    const { pending } = await call<{ pending: { agent: string; correlation_id: string }[] }>(request, demo, 'approvals.list', {})
    return pending.find((p) => p.agent === 'win-codex')!.correlation_id
  }
})
