/**
 * The needs-you queue on the demo fleet (issue 20, points 2 and 3): its counts equal what the hub
 * holds; a heartbeat appended by another process changes no count and raises no notification; a
 * new approval raises exactly one, and the sidebar badge, the window title and the Overview agree.
 */
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { call } from './api'
import { test, expect, type Served } from './fixtures'
import { pythonAppend } from './hub-writer'
import { recordNotifications } from './notifications'

interface Needs {
  operator: string
  count: number
  counts: { approval: number; patch: number; stuck: number; message: number }
  unread: { direct: number; broadcast: number }
  items: { kind: string; ref: string }[]
}

/** Appends events to the demo fleet's hub with test/hub_writer.py (another process, MemPalace's way). */
function appendToFleet(served: Served, events: Record<string, unknown>[]): void {
  pythonAppend(
    join(served.home, '..', 'fleet', 'hub'),
    events.map((event) => ({ event }))
  )
}

const heartbeat = (agent: string) => ({
  type: 'status',
  stream: 'presence',
  room: 'status',
  from_agent: agent,
  to_agent: '*',
  body: `${agent} watching: mempalace logstream watch --agent ${agent} --follow — working (heartbeat)`,
  metadata: { heartbeat: true }
})

test('the queue counts what the hub holds: approvals, waiting patches, stuck tasks, direct messages apart from broadcasts', async ({
  demo,
  request
}) => {
  const needs = await call<Needs>(request, demo, 'needs.list', {})
  const approvals = await call<{ pending: unknown[] }>(request, demo, 'approvals.list', {})
  const patches = await call<{ counts: { waiting: number } }>(request, demo, 'patch.list', { hub: 'demo' })
  const tasks = await call<{ tasks: { stuck: boolean }[] }>(request, demo, 'hub.tasks', { hub: 'demo' })
  expect(needs.counts.approval).toBe(approvals.pending.length)
  expect(needs.counts.approval).toBe(7)
  expect(needs.counts.patch).toBe(patches.counts.waiting)
  expect(needs.counts.stuck).toBe(tasks.tasks.filter((t) => t.stuck).length)
  expect(needs.count).toBe(needs.items.length)
  // a direct message to the operator counts apart; a broadcast heartbeat counts nowhere
  appendToFleet(demo, [
    {
      type: 'chat.message',
      stream: 'project/muse',
      room: 'chat',
      from_agent: 'mac-claude',
      to_agent: needs.operator,
      body: 'Can you look at S053?'
    },
    heartbeat('home-bot')
  ])
  await expect
    .poll(async () => {
      const n = await call<Needs>(request, demo, 'needs.list', {})
      return { message: n.counts.message, direct: n.unread.direct, broadcast: n.unread.broadcast, count: n.count }
    })
    .toEqual({
      message: needs.counts.message + 1,
      direct: needs.unread.direct + 1,
      broadcast: needs.unread.broadcast, // a heartbeat is never unread, never an item, never notified
      count: needs.count + 1
    })
})

/** The count the sidebar badge, the window title and the Overview show. */
async function shown(page: Page): Promise<{ badge: string | null; title: string; overview: string | null }> {
  return {
    badge: await page.getByTestId('needs-badge').textContent(),
    title: (/^\((\d+)\)/.exec(await page.title()) ?? [])[1] ?? '0',
    overview: await page.getByTestId('needs-count').textContent()
  }
}

test('a heartbeat from another process changes nothing; a new approval raises one notification; badge, title and Overview agree', async ({
  page,
  demo,
  request
}) => {
  const notes = await recordNotifications(page)
  await page.goto(demo.openUrl)
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-status', 'live')
  const before = await call<Needs>(request, demo, 'needs.list', {})
  const n = String(before.count)
  await expect.poll(() => shown(page)).toEqual({ badge: n, title: n, overview: n })
  const unread = await page.getByTestId('needs-unread').textContent()

  appendToFleet(demo, [heartbeat('home-bot'), heartbeat('win-codex')])
  // the heartbeats reach the page (the Timeline's live feed) but no figure moves and nothing notifies
  await page.waitForTimeout(3000)
  expect(await notes()).toEqual([])
  expect(await shown(page)).toEqual({ badge: n, title: n, overview: n })
  expect(await page.getByTestId('needs-unread').textContent()).toBe(unread)

  appendToFleet(demo, [
    {
      type: 'approval.request',
      stream: 'project/atlas',
      room: 'approvals',
      from_agent: 'home-claude',
      to_agent: '*',
      correlation_id: 'appr_00000000n001',
      status: 'open',
      body: 'Bash: cargo build --release',
      metadata: {
        tool_name: 'Bash',
        tool_input: { command: 'cargo build --release' },
        harness: 'claude-code',
        session_id: 's',
        cwd: '/w',
        timeout_ms: 600_000
      }
    }
  ])
  await expect.poll(async () => (await notes()).length, { timeout: 30_000 }).toBe(1)
  const m = String(before.count + 1)
  // once the notice is out, every figure shows the new count (how soon is no test's to judge: a busy
  // machine may take longer than a second)
  await expect.poll(() => shown(page)).toEqual({ badge: m, title: m, overview: m })
  await page.waitForTimeout(2000)
  const [note, ...more] = await notes()
  expect(more).toEqual([])
  expect(note!.title).toMatch(/home-claude asks to use Bash/)
})
