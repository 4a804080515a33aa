/**
 * Usage from the harnesses' own records (issue 34): the real Claude Code, Codex and Gemini CLIs
 * each run one session against their model API stand-in, whose every reply reports known token
 * counts (`ANTHROPIC_USAGE`, `RESPONSES_USAGE`, `GEMINI_USAGE`). Muster's lifecycle hook hands
 * its worker the session's record file (transcript, rollout, saved chat), and Muster's total for
 * that session, as `muster usage` reads it, must equal what the stand-in reported, kind by kind
 * (each vendor's own way of counting cached and reasoning tokens mapped to Muster's kinds).
 */
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { ANTHROPIC_USAGE, startAnthropicStandIn } from './anthropic-stand-in'
import { test, expect } from './fixtures'
import { claudeProject, CODEX, GEMINI, runClaude, runCodex, runGemini } from './harness-launch'
import { GEMINI_USAGE, startGeminiStandIn } from './gemini-stand-in'
import { CLAUDE, markerRunner, musterInstall, openRequest, type HarnessRun } from './harness-run'
import { RESPONSES_USAGE, startResponsesStandIn } from './responses-stand-in'
import type { Served } from './fixtures'
import type { Page } from '@playwright/test'

interface Row {
  key: string
  tokens: { input: number; output: number; cache_write: number; cache_read: number }
  total: number
  session?: { harness: string; agent: string | null }
}

/** A session's tokens as `muster usage --by session` reads them (null: no such session yet). */
function sessionTokens(served: Served, session: string): Row['tokens'] | null {
  const r = served.cli(['usage', '--by', 'session']) as { rows: Row[] }
  return r.rows.find((row) => row.key === session)?.tokens ?? null
}

/** The only session of a harness Muster counts, with its tokens (null: none, or more than one). */
function onlySession(served: Served, harness: string): Row | null {
  const r = served.cli(['usage', '--by', 'session', '--harness', harness]) as { rows: Row[] }
  return r.rows.length === 1 ? r.rows[0]! : null
}

test('Claude Code: the session total equals the tokens the model stand-in reported', async ({ demo, workDir }) => {
  test.skip(!existsSync(CLAUDE), 'Claude Code CLI absent (.cache/claude-code: filled by .ci/run): skipping the real-harness e2e')
  test.setTimeout(240_000)
  mkdirSync(claudeProject(workDir), { recursive: true })
  const marker = join(claudeProject(workDir), 'usage-marker.txt')
  const standIn = await startAnthropicStandIn(`touch ${marker}`)
  try {
    // Claude Code's own allow rule runs the one tool call: the session is two replies, a tool use and a text
    const claude = runClaude(demo, workDir, standIn, {
      sessions: true,
      edit: (s) => (s.permissions = { allow: [`Bash(touch ${marker})`] })
    })
    const out = await claude.done
    expect(out.code, out.stderr).toBe(0)
    expect(existsSync(marker)).toBe(true)
    const session = (JSON.parse(out.stdout) as { session_id: string }).session_id
    const replies = standIn.calls()
    expect(replies).toBeGreaterThanOrEqual(2)
    const toolUses = standIn.toolResults.length
    const s = ANTHROPIC_USAGE.start
    const expected = {
      input: s.input_tokens * replies,
      output: ANTHROPIC_USAGE.toolUseOutput * toolUses + ANTHROPIC_USAGE.textOutput * (replies - toolUses),
      cache_write: s.cache_creation_input_tokens * replies,
      cache_read: s.cache_read_input_tokens * replies
    }
    // read by the session hook's worker at the session's Stop; polled, never timed
    await expect.poll(() => sessionTokens(demo, session), { timeout: 60_000 }).toEqual(expected)
    const r = demo.cli(['usage', '--by', 'harness']) as { rows: Row[] }
    expect(r.rows.find((row) => row.key === 'claude-code')).toMatchObject({
      tokens: expected,
      total: expected.input + expected.output + expected.cache_write + expected.cache_read
    })
  } finally {
    await standIn.close()
  }
})

/** Muster's lifecycle hooks for `harness` in its settings file `settings`, beside the gate: the session hook's worker reads the records at each turn's end. */
const sessionHooks = (served: Served, harness: string, agent: string, settings: string): void =>
  musterInstall(served, ['session-hook', 'install', '--harness', harness, '--agent', agent, '--settings', settings])

const codexRun = markerRunner('codex-project', startResponsesStandIn, (served, workDir, standIn) =>
  runCodex(served, workDir, standIn, 'exec', () => sessionHooks(served, 'codex', 'e2e-codex', join(workDir, 'codex-home', 'hooks.json')))
)
const geminiRun = markerRunner('gemini-project', startGeminiStandIn, (served, workDir, standIn) =>
  runGemini(served, workDir, standIn, () =>
    sessionHooks(served, 'gemini', 'e2e-gemini', join(workDir, 'gemini-user', '.gemini', 'settings.json'))
  )
)

/** Each reply's tokens in Muster's kinds: OpenAI and Gemini count cached prompt tokens inside the prompt's count (Muster's input is what was read fresh), Gemini its thoughts apart. */
const CODEX_REPLY = {
  input: RESPONSES_USAGE.input_tokens - RESPONSES_USAGE.input_tokens_details.cached_tokens,
  output: RESPONSES_USAGE.output_tokens,
  cache_write: 0,
  cache_read: RESPONSES_USAGE.input_tokens_details.cached_tokens
}
const GEMINI_REPLY = {
  input: GEMINI_USAGE.promptTokenCount - GEMINI_USAGE.cachedContentTokenCount,
  output: GEMINI_USAGE.candidatesTokenCount + GEMINI_USAGE.thoughtsTokenCount,
  cache_write: 0,
  cache_read: GEMINI_USAGE.cachedContentTokenCount
}

/** Approves the run's one call in the dashboard; once the harness is done, its only session must hold `perReply` times the replies. */
async function approvedSessionTotals(
  page: Page,
  served: Served,
  run: { marker: string; harness: HarnessRun },
  who: { agent: string; harness: string },
  replies: () => number,
  perReply: Row['tokens']
): Promise<void> {
  await openRequest(page, served, who.agent, run.marker, who.harness)
  await page.getByTestId('approve').click()
  const out = await run.harness.done
  expect(out.code, out.out).toBe(0)
  const n = replies()
  expect(n).toBeGreaterThanOrEqual(2)
  const expected = Object.fromEntries(Object.entries(perReply).map(([k, v]) => [k, v * n]))
  await expect.poll(() => onlySession(served, who.harness)?.tokens ?? null, { timeout: 60_000 }).toEqual(expected)
}

test('codex exec: the session total equals the tokens the Responses stand-in reported', async ({ page, demo, workDir }) => {
  test.skip(!existsSync(CODEX), 'Codex CLI absent (.cache/codex: filled by .ci/run): skipping the real-harness e2e')
  test.setTimeout(240_000)
  await codexRun(demo, workDir, 'usage', (run) =>
    approvedSessionTotals(page, demo, run, { agent: 'e2e-codex', harness: 'codex' }, () => run.standIn.calls(), CODEX_REPLY)
  )
})

test('gemini -p: the session total equals the tokens the Gemini API stand-in reported', async ({ page, demo, workDir }) => {
  test.skip(!existsSync(GEMINI), 'Gemini CLI absent (.cache/gemini-cli: filled by .ci/run): skipping the real-harness e2e')
  test.setTimeout(240_000)
  // the router's JSON calls are not in Gemini CLI's chat: the conversation's turns are
  await geminiRun(demo, workDir, 'usage', (run) =>
    approvedSessionTotals(page, demo, run, { agent: 'e2e-gemini', harness: 'gemini' }, () => run.standIn.turns(), GEMINI_REPLY)
  )
})
