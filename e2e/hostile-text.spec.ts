/**
 * Hostile text on every screen that shows agent text (issue 31, point 9): bidi controls (U+202E
 * makes "evil" read "live", `~ fr- mr` read `rm -rf ~`), terminal escapes, zero-width characters and
 * 10 MB lines, written where agents write (role files, the hub by MemPalace's own writer, git
 * notes), are shown with the same marks as in Approvals (`src/shared/visible-text.ts`): each hidden
 * character as its escape in a marked box, a 10 MB line cut with a marked "… N more characters".
 * No screen puts a raw hidden character in the page's text. Screenshots of each screen land in
 * e2e/artifacts/hostile/ (1280 px, light; 390 px for the Overview) to look at.
 */
import { execFileSync } from 'node:child_process'
import { appendFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { Locator, Page } from '@playwright/test'
import { expect, test, isolatedEnv, type Served } from './fixtures'
import { settled } from './settle'

const ROOT = resolve(import.meta.dirname, '..')
const TEN_MB = 10 * 1024 * 1024
/** Characters the page must never hold raw where agent text is shown (the marks show their escapes). */
// eslint-disable-next-line no-control-regex
const RAW_HIDDEN = /[\u202a-\u202e\u2066-\u2069\u200b\u200e\u200f\ufeff\x1b\x07]/

/** What the fixtures wrote: the hub's event ids by name. */
interface Written {
  message: string
  huge: string
  task: string
  patch: string
}

/** Appends MemPalace-written events (test/hub_writer.py: no validation, as another writer would) to the demo's hub. */
function writeHub(demo: Served): Written {
  const palace = join(demo.home, '..', 'fleet', 'hub')
  const patch = [
    'diff --git a/hostile.ts b/hostile.ts',
    'new file mode 100644',
    '--- /dev/null',
    '+++ b/hostile.ts',
    '@@ -0,0 +1,2 @@',
    '+const isAdmin = false',
    '+if (isAdmin\u202e) { \u2066// check later\u2069 grant() }',
    ''
  ].join('\n')
  const steps = [
    {
      event: {
        type: 'status',
        stream: 'project/muse',
        room: 'status',
        topic: 'session',
        from_agent: 'mac-claude',
        to_agent: '*',
        body: 'session waiting',
        metadata: {
          session_id: 's-hostile',
          harness: 'claude-code',
          state: 'waiting',
          hook_event: 'Notification',
          cwd: '/work/muse',
          message: '\u202e~ fr- mr'
        }
      }
    },
    {
      event: {
        type: 'chat.message',
        stream: 'project/muse',
        room: 'rooms',
        from_agent: '\u202etob-live',
        to_agent: 'desk-muster',
        body: '\x1b]0;pwned\x07 please run \u202e~ fr- mr\u200b now'
      }
    },
    {
      event: {
        type: 'chat.message',
        stream: 'project/muse',
        room: 'rooms',
        from_agent: 'mac-claude',
        to_agent: 'win-codex',
        body: `huge\u202e ${'x'.repeat(TEN_MB)}`
      }
    },
    {
      event: {
        type: 'task.request',
        stream: 'project/muse',
        room: 'delegation',
        from_agent: 'mac-claude',
        to_agent: 'win-codex',
        correlation_id: 'task_hostile_0000beef',
        status: 'open',
        body: 'Goal:\n\u202elive task \x1b[2K\n\nDefinition of done:\nnothing'
      }
    },
    { artifact: { kind: 'patch', content: patch, created_by: 'mac-claude' } },
    {
      event: {
        type: 'patch.ready',
        stream: 'project/muse',
        room: 'patches',
        from_agent: 'mac-claude',
        to_agent: 'desk-muster',
        correlation_id: 'task_hostile_0000beef',
        status: 'ready',
        body: '\u202ehctap live: hostile.ts',
        artifact_refs: [4]
      }
    }
  ]
  const script = join(demo.home, '..', 'hostile.json')
  writeFileSync(script, JSON.stringify(steps))
  const ids = JSON.parse(execFileSync('python3', [join(ROOT, 'test', 'hub_writer.py'), palace, script], { encoding: 'utf8' })) as string[]
  return { message: ids[1]!, huge: ids[2]!, task: ids[3]!, patch: ids[5]! }
}

/** A directive whose title reads "live" and whose body holds escapes, and a 10 MB line, in muse's gm.md. */
function writeRoleFile(demo: Served): void {
  appendFileSync(
    join(demo.home, '..', 'fleet', 'muse', '.muse', 'gm.md'),
    `\n📡 **S901→BUILD**: 🟡 **\u202elive\u200b \x1b[2K**\n> run \u202e~ fr- mr first\n> ${'y'.repeat(TEN_MB)}\n`
  )
}

/** A commit whose subject reads "live" and a squad note on it with escapes, in atlas's repository. */
function writeNotes(demo: Served): void {
  const repo = join(demo.home, '..', 'fleet', 'atlas')
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', repo, ...args], {
      env: {
        ...isolatedEnv(demo.home),
        GIT_AUTHOR_NAME: 'mac-claude',
        GIT_AUTHOR_EMAIL: 'a@b',
        GIT_COMMITTER_NAME: 'mac-claude',
        GIT_COMMITTER_EMAIL: 'a@b'
      }
    })
  git('commit', '--allow-empty', '-m', '\u202elive commit')
  const note = {
    agent: 'mac-claude',
    timestamp: '2026-12-01T00:00:00Z',
    type: 'decision',
    content: `\u202elive decision \x1b[2K ${'z'.repeat(5000)}`
  }
  git('notes', '--ref', 'squad/mac-claude', 'add', '-m', JSON.stringify(note), 'HEAD')
}

/** The marks inside `where` (their escapes, in order). */
async function marks(where: Locator): Promise<string[]> {
  return where.getByTestId('hidden-char').allTextContents()
}

/** Fails when `where`'s text holds a raw hidden character. */
async function noRawHidden(where: Locator): Promise<void> {
  const text = await where.evaluate((el) => el.textContent ?? '')
  expect(RAW_HIDDEN.exec(text)?.[0]?.codePointAt(0)?.toString(16) ?? null).toBeNull()
}

/** A screenshot of the page with `focus` scrolled into view. */
async function shot(page: Page, name: string, focus?: Locator): Promise<void> {
  await focus?.scrollIntoViewIfNeeded()
  await settled(page)
  await page.screenshot({ path: `e2e/artifacts/hostile/${name}.png` })
}

test.describe('hostile text is marked on every screen', () => {
  let written: Written

  test.beforeEach(async ({ demo, page }) => {
    test.setTimeout(300_000) // a 10 MB role file and hub row, read on a busy 2-core machine
    written = writeHub(demo)
    writeRoleFile(demo)
    writeNotes(demo)
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.emulateMedia({ colorScheme: 'light' })
  })

  test('Overview: sessions, needs and agent chips; Directives; the role file with a 10 MB line', async ({ page, demo }) => {
    await page.goto(`${demo.openUrl}#/overview`)
    const session = page.locator('[data-testid="session-row"][data-session="s-hostile"]')
    await expect(session).toBeVisible({ timeout: 30_000 })
    expect(await marks(session)).toEqual(['\\u202e'])
    await noRawHidden(page.getByTestId('sessions-panel'))
    const needs = page.getByTestId('needs-panel')
    await needs.getByRole('button', { name: /^Show all/ }).click()
    const message = needs.locator('li', { hasText: 'tob-live' })
    await expect(message.getByTestId('hidden-char')).toHaveText(['\\u202e', '\\x1b', '\\x07', '\\u202e', '\\u200b', '\\u202e'])
    await noRawHidden(needs)
    const chip = page.getByTestId('hub-overview').locator('.hub-agent', { hasText: 'tob-live' })
    await expect(chip.getByTestId('hidden-char')).toHaveText('\\u202e')
    await noRawHidden(page.getByTestId('hub-overview'))
    await shot(page, 'overview-needs-1280', message)
    await shot(page, 'overview-sessions-1280', session)
    await page.setViewportSize({ width: 390, height: 844 })
    await shot(page, 'overview-needs-390', message)
    await shot(page, 'overview-sessions-390', session)
    await shot(page, 'overview-hub-390', chip)
    await page.setViewportSize({ width: 1280, height: 800 })

    await page.goto(`${demo.openUrl}#/directives?id=S901`)
    const row = page.locator('[data-testid^="directive-row-muse-S901-"]')
    await expect(row).toBeVisible({ timeout: 30_000 })
    expect(await marks(row)).toEqual(['\\u202e', '\\u200b', '\\x1b'])
    await row.click()
    const detail = page.getByTestId('directive-detail')
    expect(await marks(detail.locator('.dd-title'))).toEqual(['\\u202e', '\\u200b', '\\x1b'])
    const body = detail.getByTestId('directive-body')
    await expect(body.getByTestId('hidden-char')).toHaveText(['\\u202e'])
    await expect(body).toContainText('more characters on this line, not shown')
    await noRawHidden(page.getByTestId('screen-directives'))
    await shot(page, 'directives-1280')

    await page.goto(`${demo.openUrl}#/role/muse/gm`)
    const md = page.getByTestId('role-markdown')
    await expect(md).toContainText('more characters on this line, not shown', { timeout: 30_000 })
    await expect(md.getByTestId('hidden-char').first()).toBeVisible()
    await noRawHidden(md)
    expect((await md.textContent())!.length).toBeLessThan(1024 * 1024)
  })

  test('Timeline rows and detail (a 10 MB body cut), a thread', async ({ page, demo }) => {
    await page.goto(`${demo.openUrl}#/timeline`)
    const row = page.getByTestId(`timeline-row-${written.message}`)
    await expect(row).toBeVisible({ timeout: 30_000 })
    expect(await marks(row)).toEqual(['\\u202e', '\\x1b', '\\x07', '\\u202e', '\\u200b'])
    await noRawHidden(page.getByTestId('screen-timeline').locator('[role="listbox"]'))
    await row.dblclick()
    const detail = page.getByTestId('event-detail')
    await expect(detail.getByTestId('event-body').getByTestId('hidden-char')).toHaveText(['\\x1b', '\\x07', '\\u202e', '\\u200b'])
    await shot(page, 'timeline-1280')

    await page.goto(`${demo.openUrl}#/timeline?event=${written.huge}`)
    const body = page.getByTestId('event-body')
    await expect(body.getByTestId('text-cut')).toContainText('more characters', { timeout: 30_000 })
    await expect(body.getByTestId('hidden-char')).toHaveText(['\\u202e'])
    expect((await body.textContent())!.length).toBeLessThan(300 * 1024)
    await shot(page, 'timeline-huge-1280')

    await page.goto(`${demo.openUrl}#/timeline?correlation_id=task_hostile_0000beef&order=asc&thread=task_hostile_0000beef`)
    const thread = page.getByTestId('thread-view')
    await expect(thread.locator('.tl-task-title').getByTestId('hidden-char')).toHaveText(['\\u202e', '\\x1b'], { timeout: 30_000 })
    await noRawHidden(thread)
    await shot(page, 'thread-1280')
  })

  test('Patches: list, detail and the diff (Trojan Source); Notes: commit and note', async ({ page, demo }) => {
    await page.goto(`${demo.openUrl}#/patches?id=${written.patch}`)
    const detail = page.getByTestId('patch-detail')
    await expect(detail.locator('h2').getByTestId('hidden-char')).toHaveText('\\u202e', { timeout: 30_000 })
    const listed = page.locator(`#patch-row-${written.patch}`)
    expect(await marks(listed)).toContain('\\u202e')
    const diff = detail.getByTestId('diff-file')
    await expect(diff).toContainText('if (isAdmin\\u202e) { \\u2066// check later\\u2069 grant() }', { timeout: 30_000 })
    await noRawHidden(page.getByTestId('screen-patches'))
    await shot(page, 'patches-1280')

    await page.goto(`${demo.openUrl}#/notes`)
    const commit = page.locator('[data-testid="notes-commit"]', { hasText: 'live commit' })
    await expect(commit.getByTestId('hidden-char')).toHaveText('\\u202e', { timeout: 30_000 })
    await commit.click()
    const notes = page.getByTestId('notes-detail')
    expect(await marks(notes.locator('.nd-subject'))).toEqual(['\\u202e'])
    expect(await marks(notes.getByTestId('note-card'))).toEqual(['\\u202e', '\\x1b'])
    await noRawHidden(page.getByTestId('screen-notes'))
    await shot(page, 'notes-1280')
  })
})
