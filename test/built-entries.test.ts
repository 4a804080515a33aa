/**
 * The built entries (`bin/muster.cjs` and its bundles in `out/cli/`, as an operator runs them)
 * against one home: they must choose the same hub (`chooseHub`: named, the hub registered first,
 * the environment, MemPalace's default palace), whichever bundle answers: the CLI's commands, the
 * approve-hook (its own CommonJS entry) and the session hook's worker.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { builtCli } from './helpers/built-cli'
import { startHubServer, type HubServer } from './helpers/hub-server'
import { tmpDir } from './helpers/tmp'

/** A user's home (no MemPalace palace in it) and a Muster home inside it. */
function homes(): { user: string; home: string } {
  const user = tmpDir()
  return { user, home: join(user, 'muster-home') }
}

/** Runs the built `muster ARGS --home HOME` as the user `user`, with `input` on stdin. */
function muster(user: string, home: string, args: string[], input = '', env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [builtCli(), ...args, '--home', home], {
    input,
    cwd: user,
    encoding: 'utf8',
    env: { ...process.env, HOME: user, USERPROFILE: user, MUSTER_HOME: '', MUSTER_NO_BACKGROUND: '1', ...env },
    timeout: 120_000
  })
  return { code: r.status, out: r.stdout, err: r.stderr }
}

/** Claude Code's PreToolUse payload for a Bash command. */
const preToolUse = (command: string, cwd: string) =>
  JSON.stringify({
    session_id: 's-1',
    cwd,
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command },
    tool_use_id: 'toolu_1'
  })

/** The events of `type` from `agent` that the built CLI reads from the hub it chooses (none named). */
function defaultHubEvents(user: string, home: string, type: string, agent: string): { body: string; metadata: Record<string, unknown> }[] {
  const r = muster(user, home, ['events', 'list', '--type', type, '--from-agent', agent, '--json'])
  expect(r.code, r.err).toBe(0)
  return (JSON.parse(r.out) as { events: { body: string; metadata: Record<string, unknown> }[] }).events
}

/** Polls the built CLI until the default hub holds an event of `type` from `agent` (the session hook appends in a detached worker). */
async function eventually(user: string, home: string, type: string, agent: string) {
  for (let tries = 0; tries < 600; tries++) {
    const found = defaultHubEvents(user, home, type, agent)
    if (found.length) return found
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`no ${type} from ${agent} in the default hub`)
}

const servers: HubServer[] = []
afterEach(async () => {
  while (servers.length) await servers.pop()!.stop()
})

describe('the built hook and CLI choose the same hub for the same home', () => {
  it('after muster demo: the demo hub (registered first), for the CLI, the approve-hook and the session hook', async () => {
    const { user, home } = homes()
    expect(muster(user, home, ['demo']).code).toBe(0)
    const hubs = muster(user, home, ['hubs', 'list'])
    expect(hubs.out).toMatch(/\ndefault: demo \(registered first\)\n$/)
    // no MemPalace palace exists: a hook choosing on its own would find none
    expect(existsSync(join(user, '.mempalace'))).toBe(false)

    const hook = muster(user, home, ['approve-hook', '--agent', 'built-entry', '--timeout-ms', '1'], preToolUse('make release', user))
    expect(hook.err).not.toMatch(/cannot ask the operator/)
    const asked = defaultHubEvents(user, home, 'approval.request', 'built-entry')
    expect(asked.map((e) => (e.metadata.tool_input as { command: string }).command)).toEqual(['make release'])

    const session = muster(
      user,
      home,
      ['session-hook', '--agent', 'built-session'],
      JSON.stringify({ session_id: 's-2', cwd: user, hook_event_name: 'SessionStart', source: 'startup' })
    )
    expect(session.code).toBe(0)
    expect(session.err).toBe('')
    expect((await eventually(user, home, 'status', 'built-session')).length).toBe(1)
    expect(existsSync(join(user, '.mempalace'))).toBe(false)
  }, 240_000)

  it('a home whose only hub is a registered hub server: the hook asks there, where the CLI reads', async () => {
    const { user, home } = homes()
    const server = await startHubServer({ palace: join(tmpDir(), 'served'), token: 'built-entries-token' })
    servers.push(server)
    mkdirSync(home, { recursive: true })
    writeFileSync(join(user, 'tok'), 'built-entries-token\n')
    expect(muster(user, home, ['hubs', 'add', '--url', server.url, '--token-file', join(user, 'tok'), '--name', 'lab']).code).toBe(0)

    const hook = muster(user, home, ['approve-hook', '--agent', 'remote-entry', '--timeout-ms', '1'], preToolUse('make deploy', user))
    expect(hook.err).not.toMatch(/cannot ask the operator/)
    const asked = defaultHubEvents(user, home, 'approval.request', 'remote-entry')
    expect(asked.map((e) => (e.metadata.tool_input as { command: string }).command)).toEqual(['make deploy'])
  }, 240_000)

  it('nothing registered: both take the environment palace; a hook finding no hub names the default and how to pick one', () => {
    const { user, home } = homes()
    const palace = join(user, 'env-palace')
    const env = { MEMPALACE_PALACE_PATH: palace }
    const none = muster(user, home, ['approve-hook', '--agent', 'env-entry', '--timeout-ms', '1'], preToolUse('ls', user), env)
    expect(none.err).toContain(
      `cannot ask the operator (no hub at ${palace} (the default: $MEMPALACE_PALACE_PATH; no hub is registered; register one with muster hubs add DIR`
    )
    expect(existsSync(palace)).toBe(false)
    // the CLI's write creates the hub the same choice names; then the hook asks there
    expect(
      muster(
        user,
        home,
        ['events', 'append', '--type', 'note', '--stream', 's', '--room', 'r', '--from-agent', 'x', '--body', 'b'],
        '',
        env
      ).code
    ).toBe(0)
    const asked = muster(user, home, ['approve-hook', '--agent', 'env-entry', '--timeout-ms', '1'], preToolUse('make env', user), env)
    expect(asked.err).not.toMatch(/cannot ask the operator/)
    const r = muster(user, home, ['--palace', palace, 'events', 'list', '--type', 'approval.request', '--json'])
    expect((JSON.parse(r.out) as { count: number }).count).toBe(1)
  }, 240_000)
})
