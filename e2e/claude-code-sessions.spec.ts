/**
 * The session lifecycle hooks with the real Claude Code CLI (npm `@anthropic-ai/claude-code`
 * 2.1.x in the test-only `.cache/claude-code/`, filled by `.ci/run`): `muster session-hook install`
 * writes its SessionStart, UserPromptSubmit, Notification, Stop and SessionEnd hooks, and one real
 * session (`claude -p` reading its turns as stream-json on stdin, so it lives on between turns)
 * shows on the Overview's "Agent sessions" as working while the model answers, waiting for input
 * once the turn is over, and done when the session ends. The Anthropic API is a stand-in on
 * 127.0.0.1 that holds its answer until the test has seen "working".
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { join } from 'node:path'
import { test, expect } from './fixtures'
import { CLAUDE, claudeEnv, fleetPalace, musterInstall, startHarness } from './harness-run'

test.skip(!existsSync(CLAUDE), 'Claude Code CLI absent (.cache/claude-code: filled by .ci/run): skipping the real-harness e2e')

/** A Messages API stand-in answering text only; the answer to `held` waits for `release()`. */
async function gatedStandIn(held: string) {
  let release!: () => void
  const gate = new Promise<void>((r) => (release = r))
  let asked = 0
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (d: Buffer) => (body += d))
    req.on('end', async () => {
      if (req.method !== 'POST' || !req.url?.startsWith('/v1/messages') || req.url.includes('count_tokens')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"type":"error","error":{"type":"not_found_error","message":"no"}}')
        return
      }
      const parsed = JSON.parse(body) as { model: string }
      if (body.includes(held)) {
        asked++
        await gate
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      const send = (event: string, data: unknown): void => void res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
      send('message_start', {
        type: 'message_start',
        message: {
          id: 'msg_s',
          type: 'message',
          role: 'assistant',
          model: parsed.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 5, output_tokens: 1 }
        }
      })
      send('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } })
      send('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'All set.' } })
      send('content_block_stop', { type: 'content_block_stop', index: 0 })
      send('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 3 } })
      send('message_stop', { type: 'message_stop' })
      res.end()
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  const { port } = server.address() as { port: number }
  return { url: `http://127.0.0.1:${port}`, release, asked: () => asked, close: () => new Promise<void>((r) => server.close(() => r())) }
}

test('Claude Code session: working, then waiting for input, then done on the Overview', async ({ page, demo, workDir }) => {
  test.setTimeout(180_000)
  const prompt = 'Summarise the session-state marker 7f3a.'
  const standIn = await gatedStandIn('marker 7f3a')
  const home = join(workDir, 'claude-home')
  const project = join(workDir, 'sessions-project')
  mkdirSync(home, { recursive: true })
  mkdirSync(project, { recursive: true })
  const settings = join(home, 'settings.json')
  const palace = fleetPalace(demo)
  musterInstall(demo, ['session-hook', 'install', '--agent', 'e2e-claude', '--settings', settings], { HOME: home })
  const installed = JSON.parse(readFileSync(settings, 'utf8')) as { hooks: Record<string, unknown> }
  expect(Object.keys(installed.hooks)).toEqual(['SessionStart', 'UserPromptSubmit', 'Notification', 'Stop', 'SessionEnd'])

  const claude = startHarness(
    CLAUDE,
    ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', '--settings', settings],
    project,
    claudeEnv(home, standIn.url),
    true
  )
  try {
    claude.write(JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: prompt }] } }) + '\n')
    await page.goto(demo.openUrl)
    const row = page.getByTestId('session-row').filter({ hasText: 'e2e-claude' })
    // the model is answering (held by the stand-in): working
    await expect.poll(() => standIn.asked(), { timeout: 60_000 }).toBeGreaterThan(0)
    await expect(row).toHaveAttribute('data-state', 'working', { timeout: 30_000 })
    await expect(row).toContainText('working')
    await expect(row).toContainText('claude-code')
    await expect(row.getByTestId('session-since')).toContainText(/for (now|\d+ min)/)
    // the turn is over, the session waits for its next prompt: waiting for input
    standIn.release()
    await expect.poll(() => claude.output(), { timeout: 60_000 }).toContain('"type":"result"')
    await expect(row).toHaveAttribute('data-state', 'waiting', { timeout: 30_000 })
    await expect(row).toContainText('waiting for input')
    await expect(page.getByTestId('sessions-summary')).toContainText('1 waiting for input')
    // the operator's side ends: done
    claude.end()
    const exited = await claude.done
    expect(exited.code, exited.stderr).toBe(0)
    await expect(row).toHaveAttribute('data-state', 'done', { timeout: 30_000 })
    await expect(row.getByTestId('session-since')).toContainText('ended')
    // the hub holds the compact status events, one per hook, in order
    const listed = demo.cli(['events', 'list', '--palace', palace, '--type', 'status', '--topic', 'session', '--limit', '20']) as {
      events: { metadata: { state: string; hook_event: string; at: string } }[]
    }
    const states = listed.events
      .map((e) => e.metadata)
      .sort((a, b) => a.at.localeCompare(b.at))
      .map((m) => `${m.hook_event}:${m.state}`)
    expect(states).toEqual(['SessionStart:waiting', 'UserPromptSubmit:working', 'Stop:waiting', 'SessionEnd:done'])
  } finally {
    claude.kill()
    await standIn.close()
  }
})
