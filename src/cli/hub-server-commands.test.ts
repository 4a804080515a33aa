/**
 * Every hub command with `--hub NAME` against a registered hub server (test/hub_server.py, the
 * stand-in for `mempalace serve`): events, task, thread, artifact, patch, approvals. They all reach
 * the hub through the composition root, so one that wires its hub differently fails here.
 */
import { cpSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../test/helpers/fixtures'
import { noteAppendArgs, runCliAtHome, type CliRun } from '../../test/helpers/cli'
import { type HubServer } from '../../test/helpers/hub-server'
import { registerHubServer } from '../../test/helpers/hub-server-cli'
import { BASE_FILES, makePatch } from '../../test/helpers/patch-setup'
import { makeRepo, type TestRepo } from '../../test/helpers/git-repo'
import { tmpDir } from '../../test/helpers/tmp'

const TOKEN = 'hub-cmd-token-77a1c0'
let server: HubServer
let home: string
let repo: TestRepo
let base: string

function run(...args: string[]): Promise<CliRun> {
  return runCliAtHome(home, ...args)
}

async function json<T = Record<string, unknown>>(...args: string[]): Promise<T> {
  const r = await run(...args, '--json')
  expect(r, `${args.join(' ')}: ${r.out}`).toMatchObject({ code: 0, err: '' })
  return JSON.parse(r.out) as T
}

beforeAll(async () => {
  home = tmpDir('muster-home-')
  server = await registerHubServer(home, { token: TOKEN })
  repo = await makeRepo(join(tmpDir('muster-repo-'), 'demo'))
  base = await repo.commit('base', BASE_FILES)
  expect(await run('projects', 'add', repo.dir, '--name', 'demo')).toMatchObject({ code: 0 })
}, 60_000)

afterAll(async () => {
  await server?.stop()
})

describe('hub commands with --hub NAME on a hub server', () => {
  it('events append, list, wait, watch and ack; thread', async () => {
    const corr = 'task_hubcmd_0001'
    const ev = await json<{ id: string }>(
      'events',
      'append',
      '--hub',
      'lab',
      '--type',
      'task.request',
      '--stream',
      'project/demo',
      '--room',
      'delegation',
      '--from-agent',
      'mac-claude',
      '--to-agent',
      'win-codex',
      '--correlation-id',
      corr,
      '--body',
      'do it'
    )
    const listed = await json<{ count: number; events: { id: string }[] }>('events', 'list', '--hub', 'lab', '--correlation-id', corr)
    expect(listed.events.map((e) => e.id)).toEqual([ev.id])
    const waited = await json<{ events: { id: string }[] }>(
      'events',
      'wait',
      '--hub',
      'lab',
      '--correlation-id',
      corr,
      '--timeout-ms',
      '5000'
    )
    expect(waited.events.map((e) => e.id)).toEqual([ev.id])
    const watched = await run('events', 'watch', '--hub', 'lab', '--correlation-id', corr, '--from-start', '--idle-exit-ms', '20000')
    expect(watched.code).toBe(0)
    expect(watched.out).toContain(ev.id)
    const ack = await json<{ type: string; metadata: { ack_of: string } }>(
      'events',
      'ack',
      ev.id,
      '--hub',
      'lab',
      '--from-agent',
      'win-codex',
      '--status',
      'claimed'
    )
    expect(ack).toMatchObject({ type: 'event.ack', metadata: { ack_of: ev.id } })
    const thread = await run('thread', corr, '--hub', 'lab', '--json')
    expect(thread.code).toBe(0)
    expect(thread.out).toContain(ev.id)
  })

  it('task create', async () => {
    const r = await json<{ event: { id: string; type: string } }>(
      'task',
      'create',
      '--hub',
      'lab',
      '--project',
      'demo',
      '--from-agent',
      'mac-claude',
      '--to-agent',
      'win-codex',
      '--goal',
      'fix it',
      '--done',
      'tests pass',
      '--branch',
      'main',
      '--base-commit',
      base
    )
    expect(JSON.stringify(r)).toContain('task.request')
  })

  it('artifact put and get', async () => {
    const put = await json<{ id: string; sha256: string }>(
      'artifact',
      'put',
      '--hub',
      'lab',
      '--kind',
      'note',
      '--created-by',
      'mac-claude',
      '--content',
      'exact bytes\n'
    )
    const got = await run('artifact', 'get', put.id, '--hub', 'lab')
    expect(got).toMatchObject({ code: 0, out: 'exact bytes\n' })
  })

  it('patch submit, list, verify and apply', async () => {
    const diff = await makePatch(repo, { 'src/app.txt': 'alpha\nBETA\ngamma\ndelta\n' })
    writeFileSync(join(home, 'fix.patch'), diff)
    const sent = await json<{ event: { id: string } }>(
      'patch',
      'submit',
      'fix.patch',
      '--hub',
      'lab',
      '--to-agent',
      'desk-op',
      '--project',
      'demo',
      '--base-commit',
      base,
      '--branch',
      'main'
    )
    const id = sent.event.id
    const listed = await json<{ patches: { event: { id: string } }[] }>('patch', 'list', '--hub', 'lab')
    expect(listed.patches.map((p) => p.event.id)).toContain(id)
    const verified = await run('patch', 'verify', id, '--hub', 'lab', '--project', 'demo')
    expect(verified.err).toBe('')
    expect(verified.code).toBe(0)
    expect(verified.out).toMatch(new RegExp(`^${id}: verified`))
    const applied = await json<{ outcome: string }>('patch', 'apply', id, '--hub', 'lab', '--project', 'demo')
    expect(applied.outcome).toBe('applied')
  })

  it('approvals list', async () => {
    const r = await json<{ pending: unknown[]; hubs: { ok: boolean }[] }>('approvals', 'list', '--hub', 'lab')
    expect(r.pending).toEqual([])
    expect(r.hubs.every((h) => h.ok)).toBe(true)
  })

  it('muster mcp --hub NAME: the hub tools reach the registered server (the built CLI)', async () => {
    const corr = 'task_hubcmd_mcp01'
    const ev = await json<{ id: string }>(...noteAppendArgs('lab', 'mac-claude', '--correlation-id', corr, '--body', 'via mcp'))
    const root = join(tmpDir(), 'project')
    cpSync(join(REPO_ROOT, 'test/fixtures/muse-mcp/project'), root, { recursive: true })
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(REPO_ROOT, 'bin', 'muster.cjs'), 'mcp', '--project-root', root, '--home', home, '--hub', 'lab'],
      env: { ...(process.env as Record<string, string>), HOME: home, MUSTER_HOME: '' },
      stderr: 'pipe'
    })
    const client = new Client({ name: 'hub-cmd-test', version: '1.0.0' })
    await client.connect(transport)
    try {
      const r = (await client.callTool({ name: 'mempalace_event_list', arguments: { correlation_id: corr } })) as {
        content: { text: string }[]
      }
      expect(JSON.parse(r.content[0]!.text)).toMatchObject({ count: 1, events: [{ id: ev.id, body: 'via mcp' }] })
    } finally {
      await client.close()
    }
  }, 60_000)
})
