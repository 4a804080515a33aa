/**
 * What the fleet costs, on screen (issue 34, point 4): a home whose user folder holds the
 * harnesses' own records in their real shapes (a Claude Code transcript over two days, a Codex
 * rollout of a model the price table does not know, a Gemini CLI chat from yesterday), a hub with
 * another machine's usage report and the sessions' lifecycle states, and two budgets. The
 * Overview's usage panel, the session rows' running totals and the Usage screen show exactly the
 * seeded figures (every dollar an estimate with the table's date, the unknown model counted and
 * flagged, a harness without usage saying so), update live when a harness appends a message, are
 * axe clean, and are photographed at 390, 768, 1280 and 1600 px in both themes
 * (e2e/artifacts/usage/).
 */
import { execFileSync, type ChildProcess } from 'node:child_process'
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Page } from '@playwright/test'
import { seriousViolations } from './axe'
import { expect, isolatedEnv, startServe, stopServe, test } from './fixtures'
import { pythonAppend } from './hub-writer'
import { settled } from './settle'

const BIN = resolve(import.meta.dirname, '..', 'bin', 'muster.cjs')

const CLAUDE = 'c1a0d3e4-5f60-4a7b-8c9d-0e1f2a3b4c5d'
const CODEX = '01a2b3c4-d5e6-7f80-9a1b-2c3d4e5f6a7b'
const GEMINI = '9e8d7c6b-5a49-4382-9170-6f5e4d3c2b1a'
const LAB = 'f0e1d2c3-b4a5-4697-8877-665544332211'
const COPILOT = 'cp-5e6f7a8b'

const DAY = 86_400_000
// days are UTC days: the browser runs in UTC (below), so "today" is the same day for the seed and the screens
const midnight = Math.floor(Date.now() / DAY) * DAY
const iso = (ms: number): string => new Date(ms).toISOString()
/** Today, a second after midnight (the records are never in the future), and 10:00 of earlier days. */
const TODAY = iso(Math.min(Date.now(), midnight + 1000))
const YESTERDAY = iso(midnight - DAY + 10 * 3_600_000)
const TWO_DAYS_AGO = iso(midnight - 2 * DAY + 10 * 3_600_000)

interface Seeded {
  home: string
  fleet: string
  user: string
  openUrl: string
  proc: ChildProcess
  dir: string
}
let seeded: Seeded

/** A Claude Code transcript line of an assistant message with its usage, as Claude Code writes it. */
function claudeMessage(id: string, at: string, cwd: string, usage: Record<string, number>): string {
  return JSON.stringify({
    parentUuid: null,
    isSidechain: false,
    type: 'assistant',
    uuid: `u-${id}`,
    timestamp: at,
    cwd,
    sessionId: CLAUDE,
    version: '2.1.332',
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model: 'claude-opus-5-5',
      content: [{ type: 'text', text: 'Done.' }],
      stop_reason: 'end_turn',
      usage: { ...usage, service_tier: 'standard' }
    }
  })
}

/** The harnesses' records under the user folder, as each harness lays them out. */
function seedRecords(user: string, fleet: string): void {
  const claudeDir = join(user, '.claude', 'projects', fleet.replace(/[\\/]/g, '-') + '-muse')
  mkdirSync(claudeDir, { recursive: true })
  const muse = join(fleet, 'muse')
  writeFileSync(
    join(claudeDir, `${CLAUDE}.jsonl`),
    [
      JSON.stringify({ type: 'user', timestamp: TWO_DAYS_AGO, cwd: muse, sessionId: CLAUDE, message: { role: 'user', content: 'run it' } }),
      // 2 days ago: 10,000 input, 2,000 output, 100,000 cache read = 112,000 tokens, $0.10
      claudeMessage('msg_1', TWO_DAYS_AGO, muse, {
        input_tokens: 10_000,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 100_000,
        output_tokens: 2_000
      }),
      // today: 20,000 input, 5,000 output, 40,000 cache write, 300,000 cache read = 365,000 tokens, $0.44
      claudeMessage('msg_2', TODAY, muse, {
        input_tokens: 20_000,
        cache_creation_input_tokens: 40_000,
        cache_read_input_tokens: 300_000,
        output_tokens: 5_000
      }),
      // the same message written again (another content block): counted once
      claudeMessage('msg_2', TODAY, muse, {
        input_tokens: 20_000,
        cache_creation_input_tokens: 40_000,
        cache_read_input_tokens: 300_000,
        output_tokens: 5_000
      }),
      ''
    ].join('\n')
  )
  // Codex: a running total of 50,000 input (20,000 cached) and 8,000 output = 58,000 tokens of a model without a price
  const d = new Date(TODAY)
  const ymd = [String(d.getUTCFullYear()), String(d.getUTCMonth() + 1).padStart(2, '0'), String(d.getUTCDate()).padStart(2, '0')]
  const codexDir = join(user, '.codex', 'sessions', ...ymd)
  mkdirSync(codexDir, { recursive: true })
  const dya = join(fleet, 'dya')
  const total = (input: number, cached: number, output: number) => ({
    input_tokens: input,
    cached_input_tokens: cached,
    cache_write_input_tokens: 0,
    output_tokens: output,
    reasoning_output_tokens: 0,
    total_tokens: input + output
  })
  writeFileSync(
    join(codexDir, `rollout-${ymd.join('-')}T00-00-01-${CODEX}.jsonl`),
    [
      {
        timestamp: TODAY,
        type: 'session_meta',
        payload: { id: CODEX, session_id: CODEX, timestamp: TODAY, cwd: dya, cli_version: '0.171.0', source: 'exec' }
      },
      { timestamp: TODAY, type: 'turn_context', payload: { cwd: dya, approval_policy: 'never', model: 'gpt-5.1-codex' } },
      {
        timestamp: TODAY,
        type: 'event_msg',
        payload: {
          type: 'token_count',
          info: { total_token_usage: total(20_000, 8_000, 3_000), last_token_usage: total(20_000, 8_000, 3_000) }
        }
      },
      {
        timestamp: TODAY,
        type: 'event_msg',
        payload: {
          type: 'token_count',
          info: { total_token_usage: total(50_000, 20_000, 8_000), last_token_usage: total(30_000, 12_000, 5_000) }
        }
      },
      ''
    ]
      .map((l) => (typeof l === 'string' ? l : JSON.stringify(l)))
      .join('\n')
  )
  // Gemini CLI, yesterday: 100,000 input (40,000 cached), 10,000 output and 2,000 thoughts = 112,000 tokens, $0.0492
  const chats = join(user, '.gemini', 'tmp', 'atlas', 'chats')
  mkdirSync(chats, { recursive: true })
  const message = {
    id: 'g-1',
    timestamp: YESTERDAY,
    type: 'gemini',
    content: 'Finished.',
    thoughts: [],
    tokens: { input: 100_000, output: 10_000, cached: 40_000, thoughts: 2_000, tool: 0, total: 112_000 },
    model: 'gemini-2.5-flash'
  }
  writeFileSync(
    join(chats, `session-${YESTERDAY.slice(0, 16).replace(':', '-')}-${GEMINI.slice(0, 8)}.jsonl`),
    [
      { sessionId: GEMINI, projectHash: 'a'.repeat(64), startTime: YESTERDAY, lastUpdated: YESTERDAY, kind: 'main' },
      { id: 'g-0', timestamp: YESTERDAY, type: 'user', content: [{ text: 'Summarise the atlas notes.' }] },
      message,
      { $set: { lastUpdated: YESTERDAY } },
      message,
      ''
    ]
      .map((l) => (typeof l === 'string' ? l : JSON.stringify(l)))
      .join('\n')
  )
}

/** A usage report of a session, as the session hook's worker writes it. */
function report(
  agent: string,
  project: string,
  m: { session_id: string; harness: string; machine: string; model: string; hour: string; tokens: number[] }
) {
  const [input, output, cache_write, cache_read] = m.tokens as [number, number, number, number]
  return {
    event: {
      type: 'usage.report',
      room: 'status',
      topic: 'usage',
      stream: `project/${project}`,
      from_agent: agent,
      to_agent: '*',
      body: `${m.harness} session ${m.session_id.slice(0, 12)}`,
      metadata: {
        session_id: m.session_id,
        harness: m.harness,
        machine: m.machine,
        cwd: `/home/${m.machine}/${project}`,
        at: new Date().toISOString(),
        models: { [m.model]: { input, output, cache_write, cache_read } },
        hours: [[m.hour, m.model, input, output, cache_write, cache_read]],
        skipped: 0
      }
    }
  }
}

/** A session's lifecycle state, as the session hook reports it. */
function sessionState(agent: string, project: string, session_id: string, harness: string, state: string) {
  return {
    event: {
      type: 'status',
      room: 'status',
      topic: 'session',
      stream: `project/${project}`,
      from_agent: agent,
      to_agent: '*',
      body: `session ${state}`,
      metadata: { session_id, harness, state, hook_event: state === 'working' ? 'UserPromptSubmit' : 'Stop', cwd: `/work/${project}` }
    }
  }
}

const cli = (home: string, args: string[]): unknown =>
  JSON.parse(execFileSync(process.execPath, [BIN, ...args, '--home', home, '--json'], { encoding: 'utf8', env: isolatedEnv(home) }))

test.describe.configure({ mode: 'serial' })
test.use({ timezoneId: 'UTC' })

test.beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'muster-e2e-usage-'))
  const home = join(dir, 'home')
  mkdirSync(home)
  const fleet = join(dir, 'fleet')
  cli(home, ['demo', fleet])
  const user = join(dir, 'user-home') // isolatedEnv's HOME
  seedRecords(user, fleet)
  const hour = TODAY.slice(0, 13)
  pythonAppend(join(fleet, 'hub'), [
    // another machine's session: 30,000 input, 6,000 output, 200,000 cache read of Sonnet 4.5 = 236,000 tokens, $0.24
    report('lab-claude', 'atlas', {
      session_id: LAB,
      harness: 'claude-code',
      machine: 'lab',
      model: 'claude-sonnet-4-5',
      hour,
      tokens: [30_000, 6_000, 0, 200_000]
    }),
    // this machine's sessions reported too: the agent is named from the report, the figures from the records
    report('mac-claude', 'muse', {
      session_id: CLAUDE,
      harness: 'claude-code',
      machine: 'mac',
      model: 'claude-opus-5-5',
      hour,
      tokens: [1, 1, 1, 1]
    }),
    report('mac-codex', 'dya', { session_id: CODEX, harness: 'codex', machine: 'mac', model: 'gpt-5.1-codex', hour, tokens: [1, 1, 1, 1] }),
    sessionState('mac-claude', 'muse', CLAUDE, 'claude-code', 'working'),
    sessionState('mac-codex', 'dya', CODEX, 'codex', 'waiting'),
    sessionState('lab-claude', 'atlas', LAB, 'claude-code', 'working'),
    sessionState('win-copilot', 'atlas', COPILOT, 'copilot', 'working')
  ])
  cli(home, ['budget', 'set', '--day', '--tokens', '2000000'])
  cli(home, ['budget', 'set', '--project', 'muse', '--usd', '0.4'])
  const { proc, openUrl } = await startServe(home)
  seeded = { home, fleet, user, openUrl, proc, dir }
})

test.afterAll(async () => {
  if (!seeded) return
  await stopServe(seeded.proc)
  rmSync(seeded.dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
})

/** Opens a screen and waits for its usage figures. */
async function open(page: Page, hash: string, ready: string): Promise<void> {
  await page.goto(seeded.openUrl + hash)
  await expect(page.getByTestId(ready)).toBeVisible({ timeout: 30_000 })
}

/** A group's bar on the Overview: its name and figures. */
const bar = (page: Page, by: string, key: string) => page.getByTestId(`usage-by-${by}`).locator(`li[data-key="${key}"]`)

test('the Overview: today and 7 days per project, agent and harness, estimates dated, the unknown model flagged', async ({ page }) => {
  test.setTimeout(120_000)
  await open(page, '#/overview', 'usage-panel')
  const panel = page.getByTestId('usage-panel')
  await expect(panel.getByTestId('usage-today')).toHaveText('Today 659,000 tokens· ~$0.68')
  await expect(panel.getByTestId('usage-week')).toHaveText('Last 7 days 883,000 tokens · ~$0.83')
  await expect(panel.getByTestId('usage-week').getByTestId('usage-unpriced')).toHaveAttribute(
    'title',
    '58,000 tokens of gpt-5.1-codex not priced (no price known): counted in tokens only'
  )
  await expect(panel.getByTestId('usage-price-note')).toContainText('estimates from the price table of 2026-12-07 (v1)')
  await expect(panel.getByTestId('usage-price-note')).toContainText(
    'Not priced (no price known, counted in tokens only): gpt-5.1-codex, 58,000 tokens'
  )
  // the 7 days as columns: 112k two days ago and yesterday, 659k today
  const days = page.getByTestId('usage-days').locator('li')
  await expect(days).toHaveCount(7)
  expect(await days.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-total'))))).toEqual([
    0, 0, 0, 0, 112_000, 112_000, 659_000
  ])
  // per project, agent and harness: 7 days' tokens and estimate, today's beside
  await expect(bar(page, 'project', 'muse')).toHaveText('muse477k · ~$0.54today 365k · ~$0.44')
  await expect(bar(page, 'project', 'atlas')).toHaveText('atlas236k · ~$0.24today 236k · ~$0.24')
  await expect(bar(page, 'project', 'dya')).toHaveText('dya58k · not pricedtoday 58k')
  await expect(bar(page, 'project', '')).toHaveText('no project112k · ~$0.05none today')
  await expect(bar(page, 'agent', 'mac-claude')).toHaveText('mac-claude477k · ~$0.54today 365k · ~$0.44')
  await expect(bar(page, 'agent', 'lab-claude')).toHaveText('lab-claude236k · ~$0.24today 236k · ~$0.24')
  await expect(bar(page, 'agent', 'mac-codex')).toHaveText('mac-codex58k · not pricedtoday 58k')
  await expect(bar(page, 'harness', 'claude-code')).toHaveText('claude-code713k · ~$0.78today 601k · ~$0.68')
  await expect(bar(page, 'harness', 'gemini')).toHaveText('gemini112k · ~$0.05none today')
  // a harness that records no usage Muster reads says so instead of a 0
  await expect(bar(page, 'harness', 'copilot')).toHaveText('copilotno usage data')
  await expect(bar(page, 'harness', 'copilot').locator('[title]')).toHaveAttribute('title', 'Copilot CLI’s usage records are not read yet')
  // each session row: its running total
  const row = (id: string) => page.locator(`[data-testid="session-row"][data-session="${id}"]`).getByTestId('session-usage')
  await expect(row(CLAUDE)).toHaveText('477k tokens · ~$0.54')
  await expect(row(CODEX)).toHaveText('58k tokens · not priced')
  await expect(row(LAB)).toHaveText('236k tokens · ~$0.24')
  await expect(row(COPILOT)).toHaveText('no usage data')
  await settled(page)
  expect(await seriousViolations(page)).toEqual([])
})

test('the Usage screen: per model and per day, the budgets and how close each is, every harness', async ({ page }) => {
  test.setTimeout(120_000)
  await open(page, '#/usage', 'usage-models')
  await expect(page.getByTestId('usage-total-tokens')).toHaveText('883,000')
  await expect(page.getByTestId('usage-total-usd')).toHaveText('~$0.83')
  await expect(page.getByTestId('usage-total-sessions')).toHaveText('4')
  const models = page.getByTestId('usage-model')
  expect(await models.evaluateAll((els) => els.map((e) => e.getAttribute('data-model')))).toEqual([
    'claude-opus-5-5',
    'claude-sonnet-4-5',
    'gemini-2.5-flash',
    'gpt-5.1-codex'
  ])
  const model = (m: string) => page.locator(`[data-testid="usage-model"][data-model="${m}"]`)
  await expect(model('claude-opus-5-5')).toHaveText('claude-opus-5-51 session30,0007,00040,000400,000477,000~$0.54')
  await expect(model('claude-sonnet-4-5')).toHaveText('claude-sonnet-4-51 session30,0006,0000200,000236,000~$0.24')
  await expect(model('gemini-2.5-flash')).toHaveText('gemini-2.5-flash1 session60,00012,000040,000112,000~$0.05')
  await expect(model('gpt-5.1-codex')).toHaveText('gpt-5.1-codex1 session30,0008,000020,00058,000not priced')
  const day = (d: string) => page.locator(`[data-testid="usage-day"][data-day="${d}"]`)
  await expect(day(TODAY.slice(0, 10))).toContainText('3659,000~$0.68')
  await expect(day(YESTERDAY.slice(0, 10))).toContainText('1112,000~$0.05')
  await expect(day(TWO_DAYS_AGO.slice(0, 10))).toContainText('1112,000~$0.10')
  // the budgets count this machine's sessions (the ones its gate holds): the fleet's day at 423,000 of
  // 2,000,000 (Opus 365,000 and Codex 58,000 today; not the lab machine's), muse's day crossed by its $0.44
  const budgets = page.getByTestId('budget-row')
  await expect(budgets).toHaveCount(2)
  const fleet = budgets.filter({ hasText: 'the fleet today' })
  await expect(fleet.getByTestId('budget-detail')).toHaveText('423,000 tokens of 2,000,000 tokens')
  await expect(fleet.getByTestId('budget-share')).toHaveText('21%')
  await expect(page.getByTestId('budgets-note')).toContainText('this machine’s sessions')
  const muse = budgets.filter({ hasText: 'project muse today' })
  await expect(muse).toHaveAttribute('data-state', 'crossed')
  await expect(muse.getByTestId('budget-detail')).toContainText('~$0.44 of $0.40 (estimate) · crossed')
  await expect(muse.getByTestId('budget-share')).toHaveText('110%')
  // every harness: read, none found, or no usage data and why
  const harness = (h: string) => page.getByTestId('usage-harnesses').locator(`li[data-harness="${h}"]`)
  await expect(harness('claude-code')).toHaveAttribute('data-status', 'read')
  await expect(harness('copilot')).toHaveAttribute('data-status', 'no-usage')
  await expect(harness('cursor')).toContainText('no usage data')
  // a window: today only
  await page.getByTestId('usage-window-today').click()
  await expect(page.getByTestId('usage-total-tokens')).toHaveText('659,000')
  await expect(page.getByTestId('usage-total-usd')).toHaveText('~$0.68')
  await page.getByTestId('usage-window-7d').click()
  await expect(page.getByTestId('usage-total-tokens')).toHaveText('883,000')
  // in the sidebar and the command palette
  await expect(page.getByTestId('nav-usage')).toHaveAttribute('aria-current', 'page')
  await settled(page)
  expect(await seriousViolations(page)).toEqual([])
})

test('a crossed budget’s link marks it on the Usage screen', async ({ page }) => {
  const { budgets } = cli(seeded.home, ['budget', 'list']) as { budgets: { id: number; label: string }[] }
  const muse = budgets.find((b) => b.label.startsWith('project muse'))!
  await open(page, `#/usage?budget=${muse.id}`, 'budgets-list')
  await expect(page.locator(`[data-testid="budget-row"][data-budget="${muse.id}"]`)).toHaveAttribute('aria-current', 'true')
})

const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'tablet', width: 768, height: 1024 },
  { name: 'laptop', width: 1280, height: 800 },
  { name: 'desktop', width: 1600, height: 1000 }
] as const

test('screenshots of the Overview and the Usage screen at every size in both themes, nothing sideways', async ({ page }) => {
  test.setTimeout(300_000)
  const problems: string[] = []
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height })
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      for (const [name, hash, ready] of [
        ['overview', '#/overview', 'usage-panel'],
        ['usage', '#/usage', 'usage-models']
      ] as const) {
        await page.goto(seeded.openUrl + hash)
        await expect(page.getByTestId(ready)).toBeVisible({ timeout: 30_000 })
        if (name === 'overview') await page.getByTestId('sessions-panel').scrollIntoViewIfNeeded()
        await settled(page)
        const sideways = await page.evaluate(() => {
          const main = document.getElementById('main')!
          return Math.max(document.documentElement.scrollWidth - window.innerWidth, main.scrollWidth - main.clientWidth)
        })
        if (sideways > 0) problems.push(`${name} ${size.name} ${scheme}: scrolls sideways by ${sideways}px`)
        await page.screenshot({ path: `e2e/artifacts/usage/${name}-${size.width}-${scheme}.png` })
        if (name === 'usage') {
          // below the fold (the main column scrolls, not the page): the budgets and the harnesses
          await page.getByTestId('usage-harnesses').scrollIntoViewIfNeeded()
          await settled(page)
          await page.screenshot({ path: `e2e/artifacts/usage/usage-budgets-${size.width}-${scheme}.png` })
        }
        if (name === 'overview') {
          await page.getByTestId('usage-panel').scrollIntoViewIfNeeded()
          await settled(page)
          await page.getByTestId('usage-panel').screenshot({ path: `e2e/artifacts/usage/overview-panel-${size.width}-${scheme}.png` })
        }
      }
    }
  }
  expect(problems).toEqual([])
})

test('live: a message a harness appends shows on the Overview and in its session row within seconds', async ({ page }) => {
  test.setTimeout(120_000)
  await open(page, '#/overview', 'usage-panel')
  await expect(page.getByTestId('usage-today')).toHaveText('Today 659,000 tokens· ~$0.68')
  const muse = join(seeded.fleet, 'muse')
  const file = join(seeded.user, '.claude', 'projects', seeded.fleet.replace(/[\\/]/g, '-') + '-muse', `${CLAUDE}.jsonl`)
  // 1,000 input and 1,000 output of Opus 5.5: 2,000 tokens, $0.024
  appendFileSync(
    file,
    claudeMessage('msg_3', new Date().toISOString(), muse, {
      input_tokens: 1_000,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: 1_000
    }) + '\n'
  )
  await expect(page.getByTestId('usage-today')).toHaveText('Today 661,000 tokens· ~$0.70', { timeout: 15_000 })
  await expect(page.locator(`[data-testid="session-row"][data-session="${CLAUDE}"]`).getByTestId('session-usage')).toHaveText(
    '479k tokens · ~$0.56'
  )
})

test('an empty home: the Usage screen says nothing was recorded and how to set a budget, axe clean', async ({ page, served }) => {
  await page.goto(served.openUrl + '#/usage')
  await expect(page.getByTestId('screen-usage')).toBeVisible({ timeout: 30_000 })
  await expect(page.getByText('No usage recorded in this window')).toBeVisible()
  await expect(page.getByText('No budgets')).toBeVisible()
  await expect(page.getByTestId('usage-harnesses').locator('li[data-harness="claude-code"]')).toHaveAttribute('data-status', 'none-found')
  // the Overview shows no usage panel until some usage was recorded
  await page.evaluate(() => (window.location.hash = '#/overview'))
  await expect(page.getByTestId('screen-overview')).toBeVisible()
  await expect(page.getByTestId('usage-panel')).toHaveCount(0)
  await page.evaluate(() => (window.location.hash = '#/usage'))
  await expect(page.getByText('No budgets')).toBeVisible()
  await settled(page)
  expect(await seriousViolations(page)).toEqual([])
  await page.screenshot({ path: 'e2e/artifacts/usage/usage-empty-1600-light.png' })
  await page.setViewportSize({ width: 390, height: 844 })
  await settled(page)
  const sideways = await page.evaluate(() => document.getElementById('main')!.scrollWidth - document.getElementById('main')!.clientWidth)
  expect(sideways).toBe(0)
  await page.screenshot({ path: 'e2e/artifacts/usage/usage-empty-390-light.png' })
})
