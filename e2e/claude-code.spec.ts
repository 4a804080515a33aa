/**
 * The real Claude Code CLI (npm `@anthropic-ai/claude-code` 2.1.x, installed by `.ci/run` in the
 * test-only folder `.cache/claude-code/`, outside the app's dependencies) against a scripted
 * stand-in for the Anthropic Messages API, with `muster approve-hook` installed by the default
 * `muster approve-hook install` (PermissionRequest, `onFailure: "block"` since the installed
 * Claude Code honours it). The scripted model asks to run one Bash command that creates a marker
 * file; the operator decides in the dashboard, or Claude Code's own rules decide first. One session
 * runs several calls: "approve and always allow" inside and outside the project, then the same
 * calls again (not asked), another command and an edit (still asked: the mode is unchanged).
 * How Claude Code is started is `runClaude` (e2e/harness-launch.ts), which the fault matrix
 * (e2e/gate-faults.spec.ts) shares.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { startAnthropicStandIn } from './anthropic-stand-in'
import { test, expect } from './fixtures'
import { claudeProject, runClaude } from './harness-launch'
import { CLAUDE, historyOf, openRequest } from './harness-run'

test.skip(!existsSync(CLAUDE), 'Claude Code CLI absent (.cache/claude-code: filled by .ci/run): skipping the real-harness e2e')

test('Claude Code: approved in the dashboard, the Bash command runs', async ({ page, demo, workDir }) => {
  test.setTimeout(180_000)
  const marker = join(workDir, 'approved-marker.txt')
  const standIn = await startAnthropicStandIn(`touch ${marker}`)
  try {
    const claude = runClaude(demo, workDir, standIn)
    await openRequest(page, demo, marker, marker, 'e2e-claude')
    await page.getByTestId('approve').click()
    const out = await claude.done
    expect(out.code, out.stderr).toBe(0)
    expect(existsSync(marker)).toBe(true)
    expect(JSON.parse(out.stdout)).toMatchObject({ type: 'result', is_error: false, result: 'Done.' })
    expect(standIn.toolResults).toEqual([expect.objectContaining({ tool_use_id: 'toolu_muster_e2e', is_error: false })])
  } finally {
    await standIn.close()
  }
})

test('Claude Code session: waiting for your approval on the Overview while its call is in the inbox', async ({ page, demo, workDir }) => {
  test.setTimeout(180_000)
  const marker = join(workDir, 'session-marker.txt')
  const standIn = await startAnthropicStandIn(`touch ${marker}`)
  try {
    const claude = runClaude(demo, workDir, standIn, { sessions: true })
    await openRequest(page, demo, marker, marker, 'e2e-claude')
    await page.getByTestId('nav-overview').click()
    const row = page.getByTestId('session-row').filter({ hasText: 'e2e-claude' })
    await expect(row).toHaveAttribute('data-state', 'approval', { timeout: 30_000 })
    await expect(row).toContainText('waiting for your approval')
    await expect(page.getByTestId('sessions-summary')).toContainText('1 waiting for your approval')
    await openRequest(page, demo, marker, marker, 'e2e-claude')
    await page.getByTestId('approve').click()
    const out = await claude.done
    expect(out.code, out.stderr).toBe(0)
    expect(existsSync(marker)).toBe(true)
    // decided and the run over: the session is no longer shown as waiting for you
    await page.getByTestId('nav-overview').click()
    await expect(row).not.toHaveAttribute('data-state', 'approval', { timeout: 30_000 })
  } finally {
    await standIn.close()
  }
})

test('Claude Code: denied in the dashboard, the command does not run and the reason reaches the model', async ({ page, demo, workDir }) => {
  test.setTimeout(180_000)
  const marker = join(workDir, 'denied-marker.txt')
  const standIn = await startAnthropicStandIn(`touch ${marker}`)
  try {
    const claude = runClaude(demo, workDir, standIn)
    await openRequest(page, demo, marker, marker, 'e2e-claude')
    await page.getByTestId('approval-reason').fill('not in this folder, use the fixtures dir')
    await page.getByTestId('deny').click()
    const out = await claude.done
    expect(out.code, out.stderr).toBe(0)
    expect(existsSync(marker)).toBe(false)
    expect(standIn.toolResults).toEqual([
      { tool_use_id: 'toolu_muster_e2e', is_error: true, content: expect.stringContaining('not in this folder, use the fixtures dir') }
    ])
    const result = JSON.parse(out.stdout) as { result: string; permission_denials?: unknown[] }
    expect(result.result).toBe('The command was not run.')
    // the hub holds the request and the operator's decision
    expect(historyOf(demo, 'e2e-claude')[0]).toMatchObject({
      state: 'deny',
      decision: { reason: 'not in this folder, use the fixtures dir' }
    })
    expect(readFileSync(join(workDir, 'claude-home', 'settings.json'), 'utf8')).toContain('approve-hook --agent e2e-claude')
  } finally {
    await standIn.close()
  }
})

test('Claude Code: a call an allow rule passes runs and never reaches the inbox', async ({ page, demo, workDir }) => {
  test.setTimeout(180_000)
  // inside the session's working directory: Claude Code asks for a path outside it even when an
  // allow rule names the command
  mkdirSync(claudeProject(workDir), { recursive: true })
  const marker = join(claudeProject(workDir), 'allowed-marker.txt')
  const standIn = await startAnthropicStandIn(`touch ${marker}`)
  try {
    // the operator's own Claude Code allow rule for exactly this command, beside Muster's hook
    const claude = runClaude(demo, workDir, standIn, {
      edit: (s) => {
        expect(Object.keys(s.hooks)).toEqual(['PermissionRequest'])
        s.permissions = { allow: [`Bash(touch ${marker})`] }
      }
    })
    const out = await claude.done
    expect(out.code, out.stderr).toBe(0)
    expect(existsSync(marker)).toBe(true)
    expect(standIn.toolResults).toEqual([expect.objectContaining({ tool_use_id: 'toolu_muster_e2e', is_error: false })])
    // Claude Code decided on its own: the hub holds no request from this agent, pending or decided
    const list = demo.cli(['approvals', 'list', '--history', '50']) as {
      pending: { agent: string }[]
      history: { agent: string }[]
    }
    expect([...list.pending, ...list.history].filter((r) => r.agent === 'e2e-claude')).toEqual([])
    await page.goto(demo.openUrl)
    await page.getByTestId('nav-approvals').click()
    await expect(page.locator('[data-testid^="approval-row-"]', { hasText: marker })).toHaveCount(0)
  } finally {
    await standIn.close()
  }
})

test('Claude Code: a hook that crashes blocks the call (onFailure "block", Claude Code >= 2.1.295)', async ({ demo, workDir }) => {
  test.setTimeout(180_000)
  const marker = join(workDir, 'crashed-marker.txt')
  const standIn = await startAnthropicStandIn(`touch ${marker}`)
  try {
    // Muster's installed entry, its command swapped for one that exits 1; onFailure kept as written
    const claude = runClaude(demo, workDir, standIn, {
      edit: (s) => {
        const entry = s.hooks.PermissionRequest?.[0]?.hooks[0]
        expect(entry).toMatchObject({ type: 'command', onFailure: 'block' })
        expect(entry?.command).toContain('approve-hook --agent e2e-claude')
        if (entry) entry.command = 'exit 1'
      }
    })
    const out = await claude.done
    expect(out.code, out.stderr).toBe(0)
    expect(existsSync(marker)).toBe(false)
    // blocked by the failed hook itself, not by -p's own "needs approval" refusal
    expect(standIn.toolResults).toEqual([
      { tool_use_id: 'toolu_muster_e2e', is_error: true, content: expect.stringContaining('blocking because onFailure is "block"') }
    ])
  } finally {
    await standIn.close()
  }
})

/** A request of `agent` in `muster approvals list --history`, with what the hook and the receipts recorded. */
interface Recorded {
  agent: string
  tool_name: string
  tool_input: { command?: string; file_path?: string }
  state: string
  decision: { decided_by: string; always?: boolean } | null
  provenance?: { permission_mode?: string } | null
  stage?: string
  outcome?: string | null
}

test('Claude Code: approve and always allow a Bash call inside and outside the project; the same call again is not asked, another is, the mode stays', async ({
  page,
  demo,
  workDir
}) => {
  test.setTimeout(300_000)
  const project = claudeProject(workDir)
  const outside = join(workDir, 'outside')
  mkdirSync(outside, { recursive: true })
  const inside = `touch ${join(project, 'marker-a')}`
  const beyond = `date >> ${join(outside, 'log.txt')}`
  const other = `touch ${join(project, 'marker-b')}`
  const notes = join(project, 'notes.txt')
  const bash = (command: string) => ({ name: 'Bash', input: { command, description: 'Run it' } })
  // one session: each call twice where always was given, then a different command, then an edit
  const standIn = await startAnthropicStandIn([
    bash(inside),
    bash(inside),
    bash(beyond),
    bash(beyond),
    bash(other),
    { name: 'Write', input: { file_path: notes, content: 'still asked\n' } }
  ])
  try {
    const claude = runClaude(demo, workDir, standIn, { sessions: 'receipts' })
    await page.goto(demo.openUrl)
    await page.getByTestId('nav-approvals').click()
    const rowOf = (text: string) => page.locator('[data-testid^="approval-row-"]', { hasText: text }).filter({ hasText: 'e2e-claude' })
    /** Waits for the request whose row shows `text`, opens it and checks Claude Code's mode is still its default. */
    const open = async (text: string, preview = text) => {
      await expect(rowOf(text)).toBeVisible({ timeout: 90_000 })
      await rowOf(text).click()
      await expect(page.getByTestId('tool-preview')).toContainText(preview)
      await expect(page.getByTestId('provenance-mode')).toHaveText('default')
    }
    /** Approve and always allow, after reading what Claude Code itself is granted: this command, nothing more. */
    const always = async (command: string) => {
      await open(command)
      await page.getByTestId('approve-always').click()
      await expect(page.getByTestId('rule-input_pattern')).toHaveValue(command)
      await expect(page.getByTestId('grant-native')).toHaveText(
        `Claude Code also keeps Bash(${command}) for this session only (exactly this command); never its permission mode or a folder.`
      )
      await page.getByTestId('rule-save').click()
      await expect(rowOf(command)).toHaveCount(0)
    }
    await always(inside)
    await always(beyond)
    // a different command is asked, and so is an edit: the session did not switch to accepting edits
    await open(other)
    await page.getByTestId('approve').click()
    await open('notes.txt', 'still asked')
    await page.getByTestId('approve').click()

    const out = await claude.done
    expect(out.code, out.stderr).toBe(0)
    expect(JSON.parse(out.stdout)).toMatchObject({ type: 'result', is_error: false, permission_denials: [] })
    expect(existsSync(join(project, 'marker-a')) && existsSync(join(project, 'marker-b'))).toBe(true)
    expect(readFileSync(join(outside, 'log.txt'), 'utf8').trim().split('\n')).toHaveLength(2)
    expect(readFileSync(notes, 'utf8')).toBe('still asked\n')

    const recorded = () =>
      (demo.cli(['approvals', 'list', '--history', '50']) as { history: Recorded[] }).history
        .filter((h) => h.agent === 'e2e-claude')
        .reverse()
    const asked = (h: Recorded) => [
      h.tool_input.command ?? h.tool_input.file_path,
      h.state,
      h.decision?.decided_by,
      h.decision?.always === true
    ]
    // history is in decision order, and the call Muster's rule answered is recorded when the hook's
    // spool is drained, which may come after later calls: compared as a set of rows
    const rows = (list: unknown[][]) => list.map((r) => JSON.stringify(r)).sort()
    // Claude Code kept the inside rule: the second `touch marker-a` never reached Muster. Outside the
    // project Claude Code asks again whatever its rules say (a folder it was not given), and Muster's
    // own rule answered without the operator
    await expect
      .poll(() => rows(recorded().map(asked)), { timeout: 30_000 })
      .toEqual(
        rows([
          [inside, 'allow', 'desk-muster', true],
          [beyond, 'allow', 'desk-muster', true],
          [beyond, 'allow', `allowlist:Bash(${beyond}) for e2e-claude`, false],
          [other, 'allow', 'desk-muster', false],
          [notes, 'allow', 'desk-muster', false]
        ])
      )
    // every hook payload of the session carried the mode it started in
    expect(recorded().map((h) => h.provenance?.permission_mode)).toEqual(['default', 'default', 'default', 'default', 'default'])
    // each call the operator allowed is recorded as ran, by Claude Code's own PostToolUse; the one
    // Muster's rule answered on its fast path as delivered (its receipt marker is not left there)
    await expect
      .poll(() => rows(recorded().map((h) => [...asked(h), h.stage, h.outcome])), { timeout: 60_000 })
      .toEqual(
        rows([
          [inside, 'allow', 'desk-muster', true, 'done', 'ran'],
          [beyond, 'allow', 'desk-muster', true, 'done', 'ran'],
          [beyond, 'allow', `allowlist:Bash(${beyond}) for e2e-claude`, false, 'delivered', null],
          [other, 'allow', 'desk-muster', false, 'done', 'ran'],
          [notes, 'allow', 'desk-muster', false, 'done', 'ran']
        ])
      )
  } finally {
    await standIn.close()
  }
})
