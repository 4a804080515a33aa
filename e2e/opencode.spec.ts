/**
 * The real OpenCode CLI (npm `opencode-ai` in the test-only `.cache/opencode/`, filled by `.ci/run`)
 * with no account: a project `opencode.json` whose `@ai-sdk/openai-compatible` provider points at a
 * Chat Completions stand-in on 127.0.0.1 and asks before every shell command. Muster's gate is
 * installed the default way (`muster approve-hook install --harness opencode`: its plugin in
 * `~/.config/opencode/plugin/`, answering OpenCode's `permission.asked`). A session is driven through
 * `opencode serve`'s HTTP API (what OpenCode's TUI talks to); the scripted model runs one `bash`
 * command that creates a marker file. Allowed in the dashboard it runs, and the inbox showed that
 * very command; denied, it does not and the reason reaches the model. Faults: Muster's build gone or
 * crashing (OpenCode rejects the call, saying why), the hub gone (the call waits at OpenCode's own
 * prompt), and `opencode run`, which answers every permission itself: never recorded as the
 * operator's allow.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { startChatStandIn, type ChatStandIn } from './chat-completions-stand-in'
import { test, expect, type Served } from './fixtures'
import { fleetPalace, historyOf, musterInstall, openRequest, startHarness } from './harness-run'
import {
  capturedEvents,
  hookRunning,
  openCodeEnv,
  openCodeReady,
  openCodeUser,
  OPENCODE,
  MODEL,
  startOpenCodeServe,
  type OpenCodeUser
} from './opencode-server'

test.skip(
  !openCodeReady(),
  'OpenCode CLI or its warmed config dependencies absent (.cache/opencode, .cache/opencode-config: filled by .ci/run): skipping the real-harness e2e'
)
test.skip(process.platform !== 'linux', 'the OpenCode e2e watches its hooks through /proc')

const AGENT = 'e2e-opencode'
const PROMPT = 'Create the marker file.'

/** Installs Muster's gate for the user the default way (no `--settings`: OpenCode's global plugin folder). */
function install(served: Served, user: OpenCodeUser): void {
  musterInstall(served, ['approve-hook', 'install', '--harness', 'opencode', '--agent', AGENT, '--project', 'muse'], { HOME: user.home })
  expect(readFileSync(join(user.configDir, 'plugin', 'muster-approvals.js'), 'utf8')).toContain('// muster-approvals:')
}

/** A stand-in whose model runs `touch <name>-marker.txt` in the project, and an OpenCode user at it with Muster's gate installed. */
async function gatedUser(served: Served, workDir: string, name: string) {
  const marker = join(workDir, 'opencode-project', `${name}-marker.txt`)
  const standIn = await startChatStandIn(`touch ${marker}`)
  const user = openCodeUser(workDir, standIn.url)
  install(served, user)
  return { marker, standIn, user }
}

/** Starts `opencode serve` for the user and sends the prompt; `body` runs, then the server is stopped and the stand-in closed. */
async function withPromptedServe(user: OpenCodeUser, standIn: ChatStandIn, body: () => Promise<void>): Promise<void> {
  const server = await startOpenCodeServe(user)
  try {
    await server.prompt(PROMPT)
    await body()
  } finally {
    server.run.kill()
    await standIn.close()
  }
}

/** The agent's pending requests in the hub (`muster approvals list`). */
function pendingOf(served: Served): { tool_name: string; tool_input: { command?: string } }[] {
  return (
    served.cli(['approvals', 'list']) as { pending: { agent: string; tool_name: string; tool_input: { command?: string } }[] }
  ).pending.filter((p) => p.agent === AGENT)
}

/** Notes whether a Muster hook of `home` was seen running, every 25 ms, until stopped. */
function watchHooks(home: string): { seen(): boolean; stop(): void } {
  let seen = false
  const timer = setInterval(() => (seen ||= hookRunning(home)), 25)
  return { seen: () => seen, stop: () => clearInterval(timer) }
}

test('OpenCode serve: allowed in the dashboard, the command the inbox showed runs', async ({ page, demo, workDir }, info) => {
  test.setTimeout(300_000)
  const { marker, standIn, user } = await gatedUser(demo, workDir, 'allowed')
  await withPromptedServe(user, standIn, async () => {
    await openRequest(page, demo, AGENT, marker, 'opencode')
    expect(pendingOf(demo)).toEqual([expect.objectContaining({ tool_name: 'bash', tool_input: { command: `touch ${marker}` } })])
    await page.getByTestId('approve').click()
    await expect.poll(() => existsSync(marker), { timeout: 120_000 }).toBe(true)
    await expect.poll(() => standIn.toolResults.length, { timeout: 120_000 }).toBe(1)
    expect(historyOf(demo, AGENT)[0]).toMatchObject({ harness: 'opencode', state: 'allow' })
    // what OpenCode handed its plugins: the command asked about, then Muster's `once`
    const events = capturedEvents(user)
    await info.attach('opencode-permission-events.jsonl', { body: readFileSync(user.captured), contentType: 'application/jsonl' })
    const asked = events.find((e) => e.type === 'permission.asked')!
    expect(asked.properties).toMatchObject({ permission: 'bash', patterns: [`touch ${marker}`], metadata: { command: `touch ${marker}` } })
    expect(events.find((e) => e.type === 'permission.replied')?.properties).toMatchObject({ requestID: asked.properties.id, reply: 'once' })
  })
})

test('OpenCode serve: denied in the dashboard, the command does not run and the reason reaches the model', async ({
  page,
  demo,
  workDir
}) => {
  test.setTimeout(300_000)
  const { marker, standIn, user } = await gatedUser(demo, workDir, 'denied')
  await withPromptedServe(user, standIn, async () => {
    await openRequest(page, demo, AGENT, marker, 'opencode')
    await page.getByTestId('approval-reason').fill('not from the opencode e2e')
    await page.getByTestId('deny').click()
    await expect
      .poll(() => standIn.toolResults.map((t) => t.content).join('\n'), { timeout: 120_000 })
      .toContain('not from the opencode e2e')
    expect(existsSync(marker)).toBe(false)
    expect(historyOf(demo, AGENT)[0]).toMatchObject({
      harness: 'opencode',
      state: 'deny',
      decision: { reason: 'not from the opencode e2e' }
    })
    expect(capturedEvents(user).find((e) => e.type === 'permission.replied')?.properties).toMatchObject({ reply: 'reject' })
  })
})

/** Muster's build moved away (gone) or broken (crashing while it loads) under the installed gate launcher. */
const BUILD_FAULTS = [
  {
    fault: 'build-missing',
    what: "Muster's build gone",
    model: /Muster's build at .* is gone \(moved or uninstalled\); run `muster gates`/
  },
  {
    fault: 'hook-crash',
    what: "Muster's build crashing",
    model: /Muster's build at .* cannot start \(this build is broken\); run `muster gates`/
  }
] as const

for (const f of BUILD_FAULTS)
  test(`OpenCode serve: ${f.what}, the gate launcher rejects the call with the reason and nothing runs`, async ({ demo, workDir }) => {
    test.setTimeout(300_000)
    const { marker, standIn, user } = await gatedUser(demo, workDir, f.fault)
    // the launcher the plugin runs points at a build that is not there, or that throws as it loads
    let build = join(workDir, 'moved', 'muster.cjs')
    if (f.fault === 'hook-crash') {
      build = join(workDir, 'crashing-build', 'muster.cjs')
      mkdirSync(join(workDir, 'crashing-build'))
      writeFileSync(build, "throw new Error('this build is broken')\n")
    }
    const launcher = join(demo.home, 'bin', 'muster-gate.cjs')
    const source = readFileSync(launcher, 'utf8')
    expect(source, 'the install wrote the gate launcher').toMatch(/^const BUILD = ".*"$/m)
    writeFileSync(launcher, source.replace(/^const BUILD = ".*"$/m, `const BUILD = ${JSON.stringify(build)}`))
    await withPromptedServe(user, standIn, async () => {
      await expect.poll(() => standIn.toolResults.map((t) => t.content).join('\n'), { timeout: 120_000 }).toMatch(f.model)
      expect(existsSync(marker)).toBe(false)
      expect(pendingOf(demo)).toEqual([])
      expect(historyOf(demo, AGENT)).toEqual([])
    })
  })

test("OpenCode serve: the hub gone, the call waits at OpenCode's own prompt and nothing runs", async ({ demo, workDir }) => {
  test.setTimeout(300_000)
  const { marker, standIn, user } = await gatedUser(demo, workDir, 'no-hub')
  // the hub the gate was installed with is gone (moved away)
  renameSync(fleetPalace(demo), `${fleetPalace(demo)}-moved`)
  const server = await startOpenCodeServe(user)
  const hooks = watchHooks(demo.home)
  try {
    await server.prompt(PROMPT)
    await expect.poll(async () => (await server.permissions()).length, { timeout: 120_000 }).toBe(1)
    // Muster's hook ran and ended answering nothing (`ask`): OpenCode keeps asking at its own prompt
    await expect.poll(() => hooks.seen() && !hookRunning(demo.home), { timeout: 120_000 }).toBe(true)
    const [waiting] = await server.permissions()
    expect(waiting).toMatchObject({ permission: 'bash', patterns: [`touch ${marker}`] })
    expect(existsSync(marker)).toBe(false)
    expect(standIn.toolResults).toEqual([])
    // the person at OpenCode's prompt answers: still nothing runs
    await server.reply(waiting!.id, 'reject', 'no hub: declined at the OpenCode prompt')
    await expect
      .poll(() => standIn.toolResults.map((t) => t.content).join('\n'), { timeout: 120_000 })
      .toContain('no hub: declined at the OpenCode prompt')
    expect(existsSync(marker)).toBe(false)
  } finally {
    hooks.stop()
    server.run.kill()
    await standIn.close()
  }
})

test("opencode run: OpenCode rejects the permission itself; never recorded as the operator's allow", async ({ demo, workDir }) => {
  test.setTimeout(300_000)
  const { marker, standIn, user } = await gatedUser(demo, workDir, 'run')
  const hooks = watchHooks(demo.home)
  try {
    const run = startHarness(OPENCODE, ['run', '-m', `${MODEL.providerID}/${MODEL.modelID}`, PROMPT], user.project, openCodeEnv(user))
    const out = await run.done
    expect(out.out).toMatch(/permission requested: bash .*auto-rejecting/)
    expect(existsSync(marker)).toBe(false)
    const events = capturedEvents(user)
    const asked = events.find((e) => e.type === 'permission.asked')!
    expect(events.find((e) => e.type === 'permission.replied')?.properties).toMatchObject({
      requestID: asked.properties.id,
      reply: 'reject'
    })
    // the hook the plugin started has ended; whatever it recorded is "not delivered", nothing waits
    await expect.poll(() => hooks.seen() && !hookRunning(demo.home), { timeout: 120_000 }).toBe(true)
    expect(pendingOf(demo)).toEqual([])
    for (const h of historyOf(demo, AGENT)) {
      expect(h.state).toBe('abandoned')
      expect(h.decision?.reason).toMatch(/^not delivered: OpenCode rejected this permission itself/)
    }
  } finally {
    hooks.stop()
    await standIn.close()
  }
})
