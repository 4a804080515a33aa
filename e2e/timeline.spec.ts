/**
 * The Timeline and the hub part of the Overview, against the demo hub: listing, filters, threads,
 * rows written by another process (Python's independent hub writer), acking from the UI (checked
 * by test/hub_check.py), task validation, and the hub card.
 */
import { spawnSync } from 'node:child_process'
import { join, resolve } from 'node:path'
import type { APIRequestContext, Page } from '@playwright/test'
import type { HubEventEnvelope } from '../src/shared/api'
import { call } from './api'
import { test, expect, type Served } from './fixtures'
import { pythonAppend } from './hub-writer'
import { recordNotifications } from './notifications'

const ROOT = resolve(import.meta.dirname, '..')

/** Makes sure the demo hub is registered in the running server (idempotent) and returns it. */
async function demoHub(request: APIRequestContext, served: Served): Promise<{ name: string; palace: string }> {
  const list = await call<{ hubs: { name: string; palace: string }[] }>(request, served, 'hubs.list', {})
  const found = list.hubs.find((h) => h.palace.endsWith(join('fleet', 'hub')))
  if (found) return found
  const added = await call<{ name: string; palace: string }>(request, served, 'hubs.add', {
    palace: join(served.home, '..', 'fleet', 'hub'),
    name: 'demo'
  })
  return added
}

function listEvents(served: Served, palace: string, args: string[]): HubEventEnvelope[] {
  return (served.cli(['events', 'list', '--palace', palace, ...args]) as { events: HubEventEnvelope[] }).events
}

async function openTimeline(page: Page, served: Served): Promise<void> {
  await page.goto(served.openUrl)
  await page.getByTestId('nav-timeline').click()
  await expect(page.getByTestId('screen-timeline')).toBeVisible()
  await expect(page.getByTestId('timeline-list')).toBeVisible()
}

const rows = (page: Page) => page.locator('[data-testid^="timeline-row-"]')

test('the timeline lists the demo events newest first, and type + to_agent filters narrow it', async ({ page, demo, request }) => {
  const hub = await demoHub(request, demo)
  const newest = listEvents(demo, hub.palace, ['--order', 'desc', '--limit', '5'])
  await openTimeline(page, demo)
  await expect(page.getByTestId(`timeline-row-${newest[0]!.id}`)).toBeVisible()
  expect(await rows(page).count()).toBeGreaterThan(20)
  const firstIds = await rows(page).evaluateAll((els) => els.slice(0, 5).map((e) => e.getAttribute('data-testid')))
  expect(firstIds).toEqual(newest.map((e) => `timeline-row-${e.id}`))

  const expected = listEvents(demo, hub.palace, ['--type', 'task.request', '--to-agent', 'win-codex', '--order', 'desc'])
  expect(expected.length).toBeGreaterThan(0)
  await page.getByTestId('timeline-filter-type').fill('task.request')
  await page.getByTestId('timeline-filter-to_agent').fill('win-codex')
  await expect(rows(page)).toHaveCount(expected.length)
  const shown = await rows(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')))
  expect(shown).toEqual(expected.map((e) => `timeline-row-${e.id}`))

  // The filters live in the URL: a reload keeps them.
  expect(page.url()).toContain('type=task.request')
  await page.reload()
  await expect(page.getByTestId('timeline-filter-type')).toHaveValue('task.request')
  await expect(rows(page)).toHaveCount(expected.length)
  await page.screenshot({ path: 'e2e/artifacts/timeline-filtered.png' })
})

test('opening a thread shows its lifecycle steps and folded state', async ({ page, demo, request }) => {
  const hub = await demoHub(request, demo)
  const patch = listEvents(demo, hub.palace, ['--type', 'patch.ready', '--order', 'desc', '--limit', '1'])[0]!
  const thread = demo.cli(['thread', patch.correlation_id!, '--palace', hub.palace]) as { steps: unknown[]; state: string }
  await openTimeline(page, demo)
  await page.getByTestId(`timeline-row-${patch.id}`).click()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('event-detail')).toBeVisible()
  await expect(page.getByTestId('event-body')).toContainText(patch.body.slice(0, 40))
  await page.keyboard.press('t')
  await expect(page.getByTestId('thread-view')).toBeVisible()
  await expect(page.getByTestId('thread-step')).toHaveCount(thread.steps.length)
  await expect(page.getByTestId('thread-state')).toHaveText(thread.state)
  await page.screenshot({ path: 'e2e/artifacts/timeline-thread.png' })
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('thread-view')).toHaveCount(0)
})

test('an event appended by another process appears live, shown as pushed', async ({ page, demo, request }) => {
  const hub = await demoHub(request, demo)
  await openTimeline(page, demo)
  await expect(page.getByTestId('timeline-live')).toHaveAttribute('data-status', 'live')
  await expect(rows(page).first()).toBeVisible()
  // the pushed row follows the newest row on screen: the page shows it without reading it again
  const catchUps: unknown[] = []
  page.on('request', (r) => {
    if (r.url().includes('/api/call/hub.list') && (r.postDataJSON() as { since_event_id?: string } | null)?.since_event_id)
      catchUps.push(r.postDataJSON())
  })
  const stamp = `E2E-live-${Date.now()}`
  const started = Date.now()
  const [id] = pythonAppend(hub.palace, [
    {
      event: {
        type: 'chat.message',
        stream: 'project/muse',
        room: 'rooms',
        topic: 'e2e',
        from_agent: 'linux-gemini',
        to_agent: '*',
        body: stamp
      }
    }
  ])
  const row = page.getByTestId(`timeline-row-${id}`)
  await expect(row).toBeVisible()
  const elapsed = Date.now() - started
  await expect(row).toContainText(stamp)
  expect(catchUps, 'hub.list catch-ups after the push').toEqual([])
  test.info().annotations.push({ type: 'latency', description: `${elapsed} ms from another process's write to screen` })
  await page.screenshot({ path: 'e2e/artifacts/timeline.png' })
})

test('acking from the UI writes an event.ack that hub_check accepts', async ({ page, demo, request }) => {
  const hub = await demoHub(request, demo)
  const operator = (await call<{ operatorId: string }>(request, demo, 'settings.get', {})).operatorId
  const target = listEvents(demo, hub.palace, ['--type', 'task.request', '--order', 'desc', '--limit', '1'])[0]!
  await openTimeline(page, demo)
  await page.getByTestId(`timeline-row-${target.id}`).click()
  await page.keyboard.press('a')
  await expect(page.getByTestId('event-detail')).toBeVisible()
  await page.getByTestId('ack-status').selectOption('claimed')
  await page.getByTestId('ack-body').fill('claimed from the e2e test')
  await page.getByTestId('ack-submit').click()

  await expect
    .poll(() =>
      listEvents(demo, hub.palace, ['--type', 'event.ack', '--from-agent', operator, '--order', 'desc', '--limit', '20']).find(
        (e) => e.metadata.ack_of === target.id
      )
    )
    .toBeTruthy()
  const ack = listEvents(demo, hub.palace, ['--type', 'event.ack', '--from-agent', operator, '--order', 'desc', '--limit', '20']).find(
    (e) => e.metadata.ack_of === target.id
  )!
  expect(ack.status).toBe('claimed')
  expect(ack.to_agent).toBe(target.from_agent)
  expect(ack.correlation_id).toBe(target.correlation_id)
  await expect(page.getByTestId(`ack-${ack.id}`)).toBeVisible()
  await expect(page.getByTestId(`timeline-row-${ack.id}`)).toBeVisible()

  const check = spawnSync('python3', [join(ROOT, 'test', 'hub_check.py'), hub.palace], { encoding: 'utf8' })
  expect(check.status, check.stdout + check.stderr).toBe(0)
})

test('create task shows the backend validation inline', async ({ page, demo, request }) => {
  await demoHub(request, demo)
  await openTimeline(page, demo)
  await page.getByTestId('create-task').click()
  const form = page.getByTestId('task-form')
  await expect(form).toBeVisible()
  await page.getByTestId('task-to').fill('win-codex')
  await page.getByTestId('task-goal').fill('Check the inline error')
  await page.getByTestId('task-branch').fill('fix/e2e')
  await page.getByTestId('task-base').fill('main')
  await page.getByTestId('task-done').fill('An error is shown')
  await page.getByTestId('task-submit').click()
  await expect(page.getByTestId('task-error')).toContainText(/hexadecimal|commit/i)
})

test('the overview shows the hub: agents with their state, counts, links to the timeline', async ({ page, demo, request }) => {
  await demoHub(request, demo)
  const overview = await call<{ hubs: { agents: { agent: string; state: string }[]; tasks: { stuck: number } }[] }>(
    request,
    demo,
    'hub.overview',
    {}
  )
  const hub = overview.hubs.find((h) => h.agents.length > 0)!
  await page.goto(demo.openUrl)
  await expect(page.getByTestId('hub-overview')).toBeVisible()
  for (const a of hub.agents) {
    await expect(page.getByTestId(`hub-agent-${a.agent}`)).toHaveAttribute('data-state', a.state)
  }
  await expect(page.getByTestId('hub-counts').first()).toBeVisible()
  await expect(page.getByTestId('hub-count-stuck').first()).toContainText(String(hub.tasks.stuck))
  await page.getByTestId('hub-overview').screenshot({ path: 'e2e/artifacts/overview-hub.png' })

  await page.getByTestId('hub-count-stuck').first().click()
  await expect(page.getByTestId('screen-timeline')).toBeVisible()
  await expect(page.getByTestId('timeline-filter-correlation_id')).not.toHaveValue('')
  await expect(rows(page).first()).toBeVisible()
})

test('an event for the operator raises one desktop notification once enabled from the bell', async ({ page, demo, request }) => {
  const hub = await demoHub(request, demo)
  const operator = (await call<{ operatorId: string }>(request, demo, 'settings.get', {})).operatorId
  const notes = await recordNotifications(page, 'default')
  await page.goto(demo.openUrl)
  await expect(page.getByTestId('hub-overview')).toBeVisible()
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-status', 'live')
  await page.getByTestId('inbox-bell').click()
  await expect(page.getByTestId('inbox-bell')).toHaveAttribute('data-permission', 'granted')
  const stamp = `E2E-inbox-${Date.now()}`
  // two messages for the operator in one burst
  pythonAppend(
    hub.palace,
    ['one', 'two'].map((n) => ({
      event: {
        type: 'chat.message',
        stream: 'project/muse',
        room: 'rooms',
        from_agent: 'win-codex',
        to_agent: operator,
        body: `${stamp} ${n}`
      }
    }))
  )
  await expect.poll(async () => (await notes()).length).toBe(1)
  expect((await notes())[0]!.body).toContain('win-codex')
})
