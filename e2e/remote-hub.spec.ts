/**
 * A remote hub: test/hub_server.py (the project's stand-in for `mempalace serve`, on a real
 * logstream file) started by the test, added in Settings with its pasted token, shown in Overview and
 * Timeline; a row appended on the server's side appears within 1 s; the server stopped and
 * restarted: offline shown with the reason, then resumed with no gap and no duplicate; an ack from
 * the UI lands on the server's file and passes test/hub_check.py; a --read-only server disables
 * the write actions with the reason.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Page } from '@playwright/test'
import { startHubServer, type HubServer } from '../test/helpers/hub-server'
import { test, expect, type Served } from './fixtures'
import { settled } from './settle'

const ROOT = resolve(import.meta.dirname, '..')
const TOKEN = 'e2e-remote-token-71c4'

/** Appends events straight into the server's palace (another agent on the server's machine). */
function serverSideAppend(palace: string, events: Record<string, unknown>[]): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'muster-writer-'))
  try {
    const script = join(dir, 'script.json')
    writeFileSync(script, JSON.stringify(events.map((event) => ({ event }))))
    return JSON.parse(execFileSync('python3', [join(ROOT, 'test', 'hub_writer.py'), palace, script], { encoding: 'utf8' })) as string[]
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const note = (from: string, body: string, extra: Record<string, unknown> = {}) => ({
  type: 'chat.message',
  stream: 'project/muse',
  room: 'rooms',
  from_agent: from,
  to_agent: '*',
  body,
  ...extra
})
const rows = (page: Page) => page.locator('[data-testid^="timeline-row-"]')
const rowIds = (page: Page) => rows(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!.slice('timeline-row-'.length)))

/** Adds the server in Settings (URL + pasted token) and waits for it to be listed online. */
async function addInSettings(page: Page, served: Served, server: HubServer, name: string): Promise<void> {
  await page.goto(served.openUrl)
  await page.getByTestId('nav-settings').click()
  await page.getByRole('radiogroup', { name: 'Kind of hub' }).getByText('Hub server').click()
  await expect(page.getByTestId('add-hub-kind-remote')).toBeChecked()
  // The API takes no token file path (an API caller could make Muster send any file as a token).
  await expect(page.getByTestId('add-hub-token-file')).toHaveCount(0)
  await page.getByTestId('add-hub-url').fill(server.url)
  await page.getByTestId('add-hub-name').fill(name)
  await page.getByLabel('Token (optional)').fill(TOKEN)
  await page.getByTestId('add-hub-submit').click()
  await expect(page.getByTestId(`hub-item-${name}`)).toContainText(server.url)
  await expect(page.getByTestId(`hub-offline-${name}`)).toHaveCount(0)
  await expect(page.getByTestId('add-hub-token')).toHaveValue('') // never shown again
  await expect(page.locator('body')).not.toContainText(TOKEN)
}

test('a remote hub: Overview and Timeline, live rows, offline and back with no gap, an ack that hub_check accepts', async ({
  page,
  served,
  workDir
}) => {
  test.setTimeout(60_000)
  const palace = join(workDir, 'server-palace')
  const [requestId] = serverSideAppend(palace, [
    {
      type: 'task.request',
      stream: 'project/muse',
      room: 'delegation',
      from_agent: 'mac-claude',
      to_agent: 'win-codex',
      correlation_id: 'task_fix_ranking_0a1b2c3d',
      status: 'open',
      body: 'Goal:\nFix ranking'
    },
    note('win-codex', 'on it')
  ])
  const server = await startHubServer({ palace, token: TOKEN })
  try {
    await addInSettings(page, served, server, 'lab')
    await page.screenshot({ path: 'e2e/artifacts/settings-remote-hub.png' })

    // Overview: the remote hub's card with its agents.
    await page.getByTestId('nav-overview').click()
    const card = page.getByTestId('hub-card-lab')
    await expect(card).toBeVisible()
    await expect(card.getByTestId('hub-agent-win-codex')).toBeVisible()
    await expect(card.getByTestId('hub-count-open')).toContainText('1')
    await page.screenshot({ path: 'e2e/artifacts/overview-remote-hub.png' })

    // Timeline: every server event; a row appended on the server's side shows live.
    await page.getByTestId('nav-timeline').click()
    await expect(page.getByTestId('timeline-hub')).toContainText('lab')
    await expect(rows(page)).toHaveCount(2)
    await expect(page.getByTestId('timeline-live')).toHaveAttribute('data-status', 'live')
    // The clock starts when the writer has committed (not when its Python interpreter starts).
    const spawned = Date.now()
    const [live] = serverSideAppend(palace, [note('linux-gemini', `E2E-remote-${spawned}`)])
    const committed = Date.now()
    await expect(page.getByTestId(`timeline-row-${live}`)).toBeVisible()
    const elapsed = Date.now() - committed
    test.info().annotations.push({
      type: 'latency',
      description: `${elapsed} ms from a commit on the server's side to screen (${Date.now() - spawned} ms with the writer's start-up)`
    })

    // Stop the server: offline with the reason; rows written meanwhile arrive after the restart, once each.
    await server.stop()
    const offline = page.getByTestId('hub-offline')
    await expect(offline).toContainText(`cannot reach hub server ${server.url}`)
    await expect(offline).toContainText('reconnects by itself')
    await expect(page.getByTestId('timeline-live')).toContainText('Hub offline')
    await page.screenshot({ path: 'e2e/artifacts/timeline-remote-offline.png' })
    const whileDown = serverSideAppend(palace, [
      note('mac-claude', 'written while the server was down 1'),
      note('mac-claude', 'written while the server was down 2')
    ])
    await server.restart()
    await expect(offline).toHaveCount(0, { timeout: 30_000 })
    const after = serverSideAppend(palace, [note('win-codex', 'after the restart')])
    await expect(page.getByTestId(`timeline-row-${after[0]}`)).toBeVisible()
    const expected = JSON.parse(
      execFileSync(
        'python3',
        [
          '-c',
          `import sqlite3,json,sys; c=sqlite3.connect(sys.argv[1]); print(json.dumps([r[0] for r in c.execute('SELECT id FROM events ORDER BY rowid DESC')]))`,
          join(palace, 'logstream.sqlite3')
        ],
        { encoding: 'utf8' }
      )
    ) as string[]
    expect(expected).toEqual(expect.arrayContaining([...whileDown, ...after]))
    await expect.poll(() => rowIds(page)).toEqual(expected) // newest first, every server row exactly once

    // Overview shows it back online.
    await page.getByTestId('nav-overview').click()
    await expect(page.getByTestId('hub-card-lab')).toBeVisible()
    await expect(page.getByTestId('hub-card-offline')).toHaveCount(0)

    // An ack from the UI lands on the server's file and passes hub_check.py.
    await page.getByTestId('nav-timeline').click()
    await page.getByTestId(`timeline-row-${requestId}`).click()
    await page.keyboard.press('a')
    await page.getByTestId('ack-status').selectOption('claimed')
    await page.getByTestId('ack-body').fill('claimed over the hub server')
    await page.getByTestId('ack-submit').click()
    const acks = (): unknown[] =>
      JSON.parse(
        execFileSync(
          'python3',
          [
            '-c',
            `import sqlite3,json,sys; c=sqlite3.connect(sys.argv[1]); print(json.dumps(c.execute("SELECT status, to_agent, json_extract(metadata_json, '$.ack_of') FROM events WHERE type = 'event.ack'").fetchall()))`,
            join(palace, 'logstream.sqlite3')
          ],
          { encoding: 'utf8' }
        )
      ) as unknown[]
    await expect.poll(acks).toEqual([['claimed', 'mac-claude', requestId]])
    const check = spawnSync('python3', [join(ROOT, 'test', 'hub_check.py'), palace], { encoding: 'utf8' })
    expect(check.status, check.stdout + check.stderr).toBe(0)
    expect(JSON.parse(check.stdout)).toMatchObject({ ok: true, acks: 1 })
    await expect(page.locator('[data-testid^="ack-evt_"]')).toHaveCount(1)
  } finally {
    await server.stop()
  }
})

test('a --read-only hub server: write actions disabled with the reason', async ({ page, served, workDir }) => {
  const palace = join(workDir, 'ro-palace')
  const [id] = serverSideAppend(palace, [note('mac-claude', 'read me')])
  const server = await startHubServer({ palace, token: TOKEN, readOnly: true })
  try {
    await addInSettings(page, served, server, 'mirror')
    await expect(page.getByTestId('hub-read-only-mirror')).toBeVisible()
    await page.getByTestId('nav-timeline').click()
    await expect(page.getByTestId('hub-read-only')).toContainText('runs read-only')
    await expect(page.getByTestId('create-task')).toBeDisabled()
    await page.getByTestId(`timeline-row-${id}`).click()
    await page.keyboard.press('Enter')
    await expect(page.getByTestId('ack-button')).toBeDisabled()
    await expect(page.getByTestId('reply-button')).toBeDisabled()
    await expect(page.getByTestId('read-only-note')).toContainText('Acks, replies and tasks are disabled')
    await page.screenshot({ path: 'e2e/artifacts/timeline-remote-read-only.png' })
    await page.emulateMedia({ colorScheme: 'dark' })
    await settled(page) // let the theme's colour transitions finish before the screenshot
    await page.screenshot({ path: 'e2e/artifacts/timeline-remote-read-only-dark.png' })
    await page.getByTestId('nav-settings').click()
    await page.getByTestId('add-hub-kind-remote').locator('..').click()
    await page.getByRole('region', { name: 'Hubs' }).screenshot({ path: 'e2e/artifacts/settings-hubs-dark.png' })
  } finally {
    await server.stop()
  }
})
