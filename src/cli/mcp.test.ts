/**
 * `muster mcp` end to end: the MCP SDK's own client spawns the built CLI over stdio and calls
 * every tool. MUSE's tools answer with MUSE's texts (the own fixture; the upstream transcript when
 * ../shared is there), the hub tools with MemPalace's shapes, and stdout carries nothing but
 * JSON-RPC (string ids included).
 */
import { spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { chmodSync, cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { describeUpstream, REPO_ROOT, upstreamPath } from '../../test/helpers/fixtures'
import { tmpDir } from '../../test/helpers/tmp'
import { builtCliOut } from '../../test/helpers/built-cli'
import { createHub } from '../core/hub/store/schema'
import { appendEvent } from '../core/hub/store/writer'
import { FROM_AGENT_NOTE } from '../core/mcp/hub-tools'
import { ymd, ymdhm } from '../core/muse/edits'
import { startHubServer } from '../../test/helpers/hub-server'
import { runCli } from './index'

// the run's CLI build, inside the repository so the bundle resolves node_modules and resources/ as installed
const CLI = join(builtCliOut(), 'muster.cjs')
const clients: Client[] = []

afterAll(async () => {
  for (const c of clients) await c.close()
})

/** A writable copy of a folder. */
function writableCopy(from: string): string {
  const to = join(tmpDir(), 'project')
  cpSync(from, to, { recursive: true })
  const walk = (d: string): void => {
    chmodSync(d, 0o755)
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name))
      else chmodSync(join(d, e.name), 0o644)
    }
  }
  walk(to)
  return to
}

async function connect(root: string, palace = join(tmpDir(), 'palace')): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--project-root', root, '--home', tmpDir(), '--palace', palace],
    env: { ...(process.env as Record<string, string>), MUSTER_HOME: '' },
    stderr: 'pipe'
  })
  const client = new Client({ name: 'muster-test', version: '1.0.0' })
  await client.connect(transport)
  clients.push(client)
  return client
}

type Content = { content: { type: string; text: string }[]; isError?: boolean }
const textOf = (r: unknown) => (r as Content).content[0]!.text
/** A tool's JSON Schema without what zod adds and upstream omits. */
function normalise(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _s, additionalProperties: _a, ...rest } = schema
  return { ...rest, required: (rest.required as string[] | undefined) ?? [] }
}
/** Replaces the local date and time a run writes with the placeholders of the expectations. */
function placeholders(text: string, before: Date, after: Date): string[] {
  return [before, after].map((d) => text.replaceAll('{stamp}', ymdhm(d)).replaceAll('{today}', ymd(d)))
}

describe('muster mcp (own fixture)', () => {
  const expected = JSON.parse(readFileSync(join(REPO_ROOT, 'test/fixtures/muse-mcp/expected-calls.json'), 'utf8')) as {
    name: string
    arguments: Record<string, unknown>
    text: string
    isError?: boolean
  }[]

  it('lists MUSE’s six tools and the hub tools, with the contract’s schemas', async () => {
    const client = await connect(writableCopy(join(REPO_ROOT, 'test/fixtures/muse-mcp/project')))
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name)).toEqual([
      'muse_get_status',
      'muse_list_roles',
      'muse_get_role',
      'muse_send_directive',
      'muse_write_memory',
      'muse_search_memory',
      'mempalace_event_append',
      'mempalace_task_create',
      'mempalace_event_list',
      'mempalace_event_wait',
      'mempalace_event_ack',
      'mempalace_artifact_put',
      'mempalace_artifact_get',
      'mempalace_patch_submit'
    ])
    const get = (n: string) => normalise(tools.find((t) => t.name === n)!.inputSchema as Record<string, unknown>)
    // MUSE's six exactly as MUSE's own server lists them (the own copy; the upstream suite compares upstream's file)
    const museList = JSON.parse(readFileSync(join(REPO_ROOT, 'test/fixtures/muse-mcp/tools-list.json'), 'utf8')) as unknown
    expect(
      tools.filter((t) => t.name.startsWith('muse_')).map((t) => ({ name: t.name, description: t.description, inputSchema: get(t.name) }))
    ).toEqual(museList)
    expect(get('muse_search_memory').required).toEqual(['query'])
    expect((get('mempalace_event_append').required as string[]).sort()).toEqual(['from_agent', 'room', 'stream', 'type'])
    expect(Object.keys(get('mempalace_event_list').properties as object)).toContain('since_event_id')
    expect(Object.keys(get('mempalace_event_list').properties as object)).not.toContain('since_seq')
    // upstream's newest contract: writer filters authors, from_agent is the caller
    expect(Object.keys(get('mempalace_event_wait').properties as object)).toEqual(expect.arrayContaining(['writer', 'from_agent', 'limit']))
    expect(get('mempalace_task_create').required).toEqual(['project', 'from_agent', 'to_agent', 'goal', 'branch', 'base_commit', 'done'])
    expect(get('mempalace_artifact_get').required).toEqual(['artifact_id'])
  })

  it('answers every MUSE call with MUSE’s texts and writes MUSE’s bytes', async () => {
    const root = writableCopy(join(REPO_ROOT, 'test/fixtures/muse-mcp/project'))
    const qaBefore = readFileSync(join(root, '.muse/qa.md'), 'utf8')
    const client = await connect(root)
    let stamp = ''
    for (const call of expected) {
      const before = new Date()
      const r = (await client.callTool({ name: call.name, arguments: call.arguments })) as Content
      const after = new Date()
      expect(placeholders(call.text, before, after), `${call.name} ${JSON.stringify(call.arguments)}`).toContain(r.content[0]!.text)
      expect(r.isError ?? false, call.name).toBe(call.isError ?? false)
      if (call.name === 'muse_send_directive' && !call.isError) stamp = /\((.*)\)$/.exec(r.content[0]!.text)![1]!
    }
    expect(readFileSync(join(root, '.muse/qa.md'), 'utf8')).toBe(
      `${qaBefore}\n### 📡 S112→QA (${stamp}) — 🟡 待处理\n\n> 复验 AC4\n\nBUILD 已修 AC4，请复验。\n`
    )
    expect(readFileSync(join(root, 'memory', `${stamp.slice(0, 10)}.md`), 'utf8')).toBe(
      '\n## Build Session\n\n- QA re-run requested (S112)\n'
    )
  })

  it('refuses bad calls as MUSE does: unknown tools (-32601), invocation-rule violations; extra arguments are ignored', async () => {
    const root = writableCopy(join(REPO_ROOT, 'test/fixtures/muse-mcp/project'))
    const client = await connect(root)
    // MUSE's server (and MemPalace's) answer an unknown tool with a JSON-RPC -32601 error
    await expect(client.callTool({ name: 'bogus', arguments: {} })).rejects.toThrow('MCP error -32601: Unknown tool: bogus')
    // MUSE's server reads the arguments it knows and ignores the rest
    const extra = (await client.callTool({ name: 'muse_get_role', arguments: { role: 'gm', path: '/etc' } })) as Content
    expect([textOf(extra), extra.isError ?? false]).toEqual([readFileSync(join(root, '.muse/gm.md'), 'utf8'), false])
    const missing = (await client.callTool({ name: 'muse_get_role', arguments: {} })) as Content
    expect([textOf(missing), missing.isError]).toEqual([
      "ERROR: Invalid role name ''. Use alphanumeric names like: build, growth, qa, gm",
      true
    ])
    const loop = (await client.callTool({
      name: 'muse_send_directive',
      arguments: { target_role: 'qa', directive_id: 'S113', title: 'ask', body: '[CHAIN: cro → cfo]\n[INVOKE:cro|again?]' }
    })) as Content
    expect(loop).toMatchObject({ isError: true })
    expect(textOf(loop)).toBe(
      'ERROR: invocation refused: line 3: INVOKE:cro blocked (circular): circular call: cro is already in cro → cfo'
    )
  })

  it('the hub tools close loops through the hub service, in MemPalace’s shapes', async () => {
    const palace = join(tmpDir(), 'palace')
    createHub(palace).close()
    const client = await connect(writableCopy(join(REPO_ROOT, 'test/fixtures/muse-mcp/project')), palace)
    const call = async (name: string, args: Record<string, unknown>) => {
      const r = (await client.callTool({ name, arguments: args })) as Content
      return { json: JSON.parse(r.content[0]!.text) as Record<string, never>, isError: r.isError ?? false }
    }
    const req = await call('mempalace_event_append', {
      type: 'task.request',
      stream: 'project/orbit',
      room: 'delegation',
      from_agent: 'mac-claude',
      to_agent: 'win-codex',
      correlation_id: 'task_s111_0a1b2c3d',
      status: 'open',
      body: 'Goal: shard the index'
    })
    expect(req).toMatchObject({
      isError: false,
      json: { success: true, event: { type: 'task.request', from_agent: 'mac-claude', status: 'open', seq: 1 } }
    })
    const id = (req.json.event as unknown as { id: string }).id
    expect((await call('mempalace_event_list', { to_agent: 'win-codex' })).json).toMatchObject({ count: 1, events: [{ id }] })
    expect((await call('mempalace_event_wait', { since_event_id: id, timeout_ms: 200 })).json).toEqual({
      timed_out: true,
      events: [],
      count: 0
    })
    // a wait in progress returns the event another agent appends meanwhile
    const waiting = call('mempalace_event_wait', { since_event_id: id, to_agent: 'mac-claude', timeout_ms: 20_000 })
    await new Promise((r) => setTimeout(r, 300))
    const reply = await call('mempalace_event_append', {
      type: 'task.reply',
      stream: 'project/orbit',
      room: 'delegation',
      from_agent: 'win-codex',
      to_agent: 'mac-claude',
      correlation_id: 'task_s111_0a1b2c3d',
      status: 'open',
      body: 'On it'
    })
    const woke = (await waiting).json as unknown as { timed_out: boolean; count: number; events: { id: string }[] }
    expect(woke).toMatchObject({ timed_out: false, count: 1, events: [{ id: (reply.json.event as unknown as { id: string }).id }] })
    expect((await call('mempalace_event_ack', { event_id: id, from_agent: 'win-codex', status: 'claimed' })).json).toMatchObject({
      success: true,
      event: { type: 'event.ack', to_agent: 'mac-claude', metadata: { ack_of: id } }
    })
    const patch = await call('mempalace_patch_submit', {
      content: 'diff --git a/x b/x\n',
      from_agent: 'win-codex',
      stream: 'project/orbit',
      correlation_id: 'task_s111_0a1b2c3d'
    })
    expect(patch.json).toMatchObject({
      success: true,
      artifact: { kind: 'patch', size_bytes: 19 },
      event: { type: 'patch.ready', status: 'ready', room: 'patches' }
    })
    expect((await call('mempalace_event_list', { since_event_id: id })).json).toMatchObject({
      count: 3,
      events: [{ type: 'task.reply' }, { type: 'event.ack' }, { type: 'patch.ready' }]
    })
    // refusals are ordinary results, as upstream answers them
    expect(await call('mempalace_event_append', { type: 'Bad Type', stream: 's', room: 'r', from_agent: 'a' })).toMatchObject({
      isError: false,
      json: { success: false }
    })
    // an agent cannot write approval events through these tools: it could approve its own tool call
    for (const type of ['approval.decision', 'approval.request'])
      expect(
        (
          await call('mempalace_event_append', {
            type,
            stream: 'project/orbit',
            room: 'approvals',
            from_agent: 'mac-claude',
            metadata: { decision: 'allow', decided_by: 'desk-muster' }
          })
        ).json
      ).toMatchObject({ success: false, error: expect.stringMatching(/^agents cannot append approval\./) })
    expect((await call('mempalace_event_list', { room: 'approvals' })).json).toMatchObject({ count: 0 })
    expect(await call('mempalace_event_list', { since_event_id: 'evt_nope' })).toEqual({
      isError: false,
      json: { error: "since_event_id 'evt_nope' not found" }
    })
    const py = spawnSync('python3', [fileURLToPath(new URL('../../test/hub_check.py', import.meta.url)), palace], { encoding: 'utf8' })
    expect(py.status, py.stdout + py.stderr).toBe(0)
  })

  it('speaks plain JSON-RPC on stdout: string ids come back as strings, nothing else is printed', async () => {
    const root = writableCopy(join(REPO_ROOT, 'test/fixtures/muse-mcp/project'))
    const child = spawn(process.execPath, [CLI, 'mcp', '--project-root', root, '--home', tmpDir()], { stdio: ['pipe', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    const send = (m: object) => child.stdin.write(JSON.stringify(m) + '\n')
    send({
      jsonrpc: '2.0',
      id: 'init-1',
      method: 'initialize',
      params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'raw', version: '0' } }
    })
    send({ jsonrpc: '2.0', method: 'notifications/initialized' })
    send({ jsonrpc: '2.0', id: 'call-9', method: 'tools/call', params: { name: 'muse_get_status', arguments: {} } })
    send({ jsonrpc: '2.0', id: 7, method: 'ping' })
    child.stdin.write('this is not json\n')
    send({ jsonrpc: '2.0', id: 'x', method: 'no/such/method' })
    const started = Date.now()
    while (out.split('\n').filter(Boolean).length < 5 && Date.now() - started < 60_000) await new Promise((r) => setTimeout(r, 50))
    child.stdin.end()
    await new Promise((r) => child.once('exit', r))
    // every stdout line is a JSON-RPC message (answers may come in any order)
    const lines = out
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id: unknown; result?: Record<string, unknown>; error?: { code: number } })
    const byId = new Map(lines.map((l) => [l.id, l]))
    expect([...byId.keys()].sort((a, b) => String(a).localeCompare(String(b)))).toEqual([7, 'call-9', 'init-1', null, 'x'])
    expect(byId.get(null)!.error).toEqual({ code: -32700, message: 'Parse error' })
    expect(byId.get('init-1')!.result).toMatchObject({
      protocolVersion: '2024-11-05',
      serverInfo: { name: 'muster' },
      capabilities: { tools: {} }
    })
    expect(textOf(byId.get('call-9')!.result)).toMatch(/^\[build\] v1\.8\.0/)
    expect(byId.get(7)!.result).toEqual({})
    expect(byId.get('x')!.error!.code).toBe(-32601)
  })

  it('without .muse/ it exits 1 with one line on stderr and nothing on stdout', () => {
    const r = spawnSync(process.execPath, [CLI, 'mcp', '--project-root', tmpDir(), '--home', tmpDir()], { encoding: 'utf8', input: '' })
    expect(r.status).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(/^muster: No \.muse\/ directory found in .*\. Run MUSE setup first\.\n$/)
  })
})

/** A raw stdio session: sends the lines, waits for `answers` response lines, returns them as written. */
async function rawSession(args: string[], lines: string[], answers: number): Promise<string[]> {
  const child = spawn(process.execPath, [CLI, 'mcp', ...args], { stdio: ['pipe', 'pipe', 'pipe'] })
  let out = ''
  child.stdout.on('data', (d: Buffer) => (out += d.toString()))
  for (const l of lines) child.stdin.write(l + '\n')
  const started = Date.now()
  while (out.split('\n').filter(Boolean).length < answers && Date.now() - started < 60_000) await new Promise((r) => setTimeout(r, 25))
  child.stdin.end()
  await new Promise((r) => child.once('exit', r))
  return out.split('\n').filter(Boolean)
}
const rpcLine = (id: string, name: string, args: string) =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}","arguments":${args}}}`

describe("muster mcp: MemPalace's newest tool contract (mcp_server/protocol.py, tools_coord.py)", () => {
  /** A palace, a project and a session's arguments. */
  function setup(): { palace: string; args: string[] } {
    const palace = join(tmpDir(), 'palace')
    createHub(palace).close()
    const root = writableCopy(join(REPO_ROOT, 'test/fixtures/muse-mcp/project'))
    return { palace, args: ['--project-root', root, '--home', tmpDir(), '--palace', palace] }
  }

  it('from_agent on list/wait is the caller (never a filter, a note says so); writer filters authors', async () => {
    const { palace, args } = setup()
    const hub = createHub(palace)
    const post = (from: string, to: string, body: string, correlationId = 'task_shard_0a1b2c3d') =>
      appendEvent(hub.db, hub.replicaId, {
        type: 'task.reply',
        stream: 'project/orbit',
        room: 'delegation',
        from_agent: from,
        to_agent: to,
        correlation_id: correlationId,
        body
      })
    for (let i = 0; i < 4; i++) post('mac-claude', 'win-codex', `ask ${i}`)
    for (let i = 0; i < 3; i++) post('win-codex', 'mac-claude', `answer ${i}`)
    post('other', 'x', 'elsewhere', 'task_other_00000000')
    hub.close()
    const [asCaller, byWriter, both, waited] = (
      await rawSession(
        args,
        [
          rpcLine('1', 'mempalace_event_list', '{"correlation_id":"task_shard_0a1b2c3d","from_agent":"win-codex"}'),
          rpcLine('2', 'mempalace_event_list', '{"correlation_id":"task_shard_0a1b2c3d","writer":"win-codex"}'),
          rpcLine('3', 'mempalace_event_list', '{"correlation_id":"task_shard_0a1b2c3d","writer":"win-codex","from_agent":"win-codex"}'),
          rpcLine('4', 'mempalace_event_wait', '{"correlation_id":"task_shard_0a1b2c3d","from_agent":"mac-claude","timeout_ms":"100"}')
        ],
        4
      )
    )
      .map((l) => JSON.parse(l) as { id: number; result: { content: { text: string }[]; isError?: boolean } })
      .sort((a, b) => a.id - b.id)
      .map((r) => JSON.parse(r.result.content[0]!.text) as { count: number; note?: string; events: { from_agent: string }[] })
    expect([asCaller!.count, asCaller!.note]).toEqual([7, FROM_AGENT_NOTE])
    expect([byWriter!.count, byWriter!.note, new Set(byWriter!.events.map((e) => e.from_agent))]).toEqual([
      3,
      undefined,
      new Set(['win-codex'])
    ])
    expect([both!.count, both!.note]).toEqual([3, undefined])
    expect([waited!.count, waited!.note]).toEqual([7, FROM_AGENT_NOTE])
  })

  it('task_create, artifact_put and artifact_get: an agent on muster mcp can fetch the patch it was sent', async () => {
    const { args } = setup()
    const patch = 'diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n'
    const answers = await rawSession(
      args,
      [
        rpcLine(
          '1',
          'mempalace_task_create',
          '{"project":"orbit","from_agent":"mac-claude","to_agent":"win-codex","goal":"shard","branch":"main","base_commit":"0a1b2c3d","done":"tests pass"}'
        ),
        rpcLine(
          '2',
          'mempalace_artifact_put',
          JSON.stringify({ kind: 'patch', content: patch, created_by: 'win-codex', metadata: { lines: 2 } })
        ),
        rpcLine('3', 'mempalace_artifact_put', '{"kind":"patch","content":"x","created_by":"win-codex"}'),
        rpcLine('4', 'mempalace_artifact_put', '{"kind":"bogus","content":"x","created_by":"win-codex"}')
      ],
      4
    )
    const by = new Map(
      answers.map((l) => [(JSON.parse(l) as { id: number }).id, JSON.parse(JSON.parse(l).result.content[0].text) as Record<string, never>])
    )
    expect(by.get(1)).toMatchObject({ success: true, task: { type: 'task.request', to_agent: 'win-codex', status: 'open' } })
    expect(typeof by.get(1)!.handoff).toBe('string')
    const art = (by.get(2) as unknown as { artifact: { id: string; sha256: string; size_bytes: number } }).artifact
    expect(by.get(2)).toMatchObject({ success: true, artifact: { kind: 'patch', size_bytes: Buffer.byteLength(patch) } })
    expect((by.get(3) as unknown as { artifact: { warnings: string[] } }).artifact.warnings).toHaveLength(1)
    expect(by.get(4)).toEqual({ success: false, error: "kind='bogus' is not one of: file, json, log, note, patch" })
    const [got, missing] = (
      await rawSession(
        args,
        [
          rpcLine('5', 'mempalace_artifact_get', `{"artifact_id":"${art.id}"}`),
          rpcLine('6', 'mempalace_artifact_get', '{"artifact_id":"art_nope"}')
        ],
        2
      )
    )
      .map((l) => JSON.parse(l) as { id: number; result: { content: { text: string }[] } })
      .sort((a, b) => a.id - b.id)
      .map((r) => JSON.parse(r.result.content[0]!.text) as Record<string, unknown>)
    expect(got).toEqual({
      artifact: expect.objectContaining({ id: art.id, content: patch, sha256: createHash('sha256').update(patch).digest('hex') })
    })
    expect(missing).toEqual({ error: "artifact 'art_nope' not found" })
  })

  it("answers bad calls with upstream's JSON-RPC errors and texts; numeric strings tolerated; every id answered as sent", async () => {
    const { args } = setup()
    const lines = await rawSession(
      args,
      [
        rpcLine('1', 'mempalace_event_list', '{"bogus":1}'),
        rpcLine('2', 'mempalace_event_list', '{"b":1,"a":2}'),
        rpcLine('3', 'mempalace_event_append', '{"type":"note","from_agent":"a"}'),
        rpcLine('4', 'mempalace_event_list', '{"limit":"3"}'),
        rpcLine('5', 'mempalace_event_list', '{"limit":"three"}'),
        rpcLine('1.5', 'mempalace_event_list', '{}'),
        rpcLine('2.0', 'mempalace_event_list', '{}'),
        rpcLine('12345678901234567890', 'mempalace_event_list', '{}'),
        rpcLine('{"k":[1]}', 'mempalace_event_list', '{}'),
        '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"arguments":{}}}',
        '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"mempalace_event_list","arguments":[]}}',
        '[1,2]',
        '{"jsonrpc":"2.0","method":"no/such"}',
        '{"jsonrpc":"2.0","id":8,"method":"ping"}'
      ],
      13
    )
    const byId = (id: string) => lines.find((l) => l.startsWith(`{"jsonrpc": "2.0", "id": ${id}, `))
    const error = (id: string) => (JSON.parse(byId(id)!) as { error: { code: number; message: string } }).error
    expect(error('1')).toEqual({ code: -32602, message: "Unknown parameter 'bogus' for tool mempalace_event_list" })
    expect(error('2')).toEqual({ code: -32602, message: "Unknown parameters 'b', 'a' for tool mempalace_event_list" })
    expect(error('3')).toEqual({ code: -32602, message: "Missing required parameters 'stream', 'room' for tool mempalace_event_append" })
    expect(JSON.parse((JSON.parse(byId('4')!) as { result: { content: { text: string }[] } }).result.content[0]!.text)).toEqual({
      events: [],
      count: 0
    })
    expect(error('5')).toEqual({ code: -32602, message: "Invalid value for parameter 'limit'" })
    for (const id of ['1.5', '2.0', '12345678901234567890', '{"k": [1]}'])
      expect(byId(id), id).toContain('"result": {"content": [{"type": "text"')
    expect(error('6')).toEqual({ code: -32602, message: "Invalid params: 'name' is required for tools/call" })
    expect(error('7')).toEqual({ code: -32602, message: "Invalid params: 'name' must be a string and 'arguments' an object" })
    expect(byId('null')).toBe('{"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": "Invalid Request"}}')
    expect(byId('8')).toBe('{"jsonrpc": "2.0", "id": 8, "result": {}}')
    expect(lines).toHaveLength(13) // the notification got no answer
  })

  it('a line that is an object without method or id (`{}`) is answered at once: -32600 Invalid Request, id null', async () => {
    const { args } = setup()
    const lines = await rawSession(
      args,
      ['{}', '{"method":5}', '{"jsonrpc":"2.0","method":"no/such"}', '{"jsonrpc":"2.0","id":9,"method":"ping"}'],
      3
    )
    const invalid = '{"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": "Invalid Request"}}'
    expect(lines).toEqual([invalid, invalid, '{"jsonrpc": "2.0", "id": 9, "result": {}}'])
  })

  it('metadata numbers pass through byte for byte: ints past 2^53, 1.0 and -0.0 stored and listed as sent', async () => {
    const { palace, args } = setup()
    const [appended, listed] = await rawSession(
      args,
      [
        rpcLine(
          '1',
          'mempalace_event_append',
          '{"type":"note","stream":"s","room":"r","from_agent":"a","metadata":{"big":12345678901234567890,"f":1.0,"z":-0.0,"n":[9007199254740993,1e16]}}'
        )
      ],
      1
    ).then(async (first): Promise<string[]> => [first[0]!, (await rawSession(args, [rpcLine('2', 'mempalace_event_list', '{}')], 1))[0]!])
    const hub = createHub(palace)
    const stored = hub.db.prepare('SELECT metadata_json FROM events').get() as { metadata_json: string }
    hub.close()
    expect(stored.metadata_json).toBe('{"big": 12345678901234567890, "f": 1.0, "n": [9007199254740993, 1e+16], "z": -0.0}')
    const text = (s: string) => (JSON.parse(s) as { result: { content: { text: string }[] } }).result.content[0]!.text
    expect(text(appended!)).toContain('"metadata": {\n      "big": 12345678901234567890,\n      "f": 1.0,')
    expect(text(listed!)).toContain('"big": 12345678901234567890,\n        "f": 1.0,\n        "n": [\n          9007199254740993,')
    expect(text(listed!)).toContain('"z": -0.0')
  })

  it('and through a remote hub (test/hub_server.py): append and list over muster mcp keep them byte for byte', async () => {
    const palace = join(tmpDir(), 'palace')
    const server = await startHubServer({ palace, token: 'tok-mcp' })
    try {
      const home = tmpDir()
      writeFileSync(join(home, 'token'), 'tok-mcp')
      const io = { stdout: () => undefined, stderr: () => undefined, env: { HOME: home }, cwd: home }
      expect(
        await runCli(['hubs', 'add', '--url', server.url, '--token-file', join(home, 'token'), '--name', 'lab', '--home', home], io)
      ).toBe(0)
      const root = writableCopy(join(REPO_ROOT, 'test/fixtures/muse-mcp/project'))
      const args = ['--project-root', root, '--home', home, '--hub', 'lab']
      const meta = '{"big":12345678901234567890,"f":1.0,"z":-0.0}'
      const [appended] = await rawSession(
        args,
        [rpcLine('1', 'mempalace_event_append', `{"type":"note","stream":"s","room":"r","from_agent":"a","metadata":${meta}}`)],
        1
      )
      const [listed] = await rawSession(args, [rpcLine('2', 'mempalace_event_list', '{}')], 1)
      const py = 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("select metadata_json from events").fetchone()[0])'
      expect(spawnSync('python3', ['-c', py, join(palace, 'logstream.sqlite3')], { encoding: 'utf8' }).stdout).toBe(
        '{"big": 12345678901234567890, "f": 1.0, "z": -0.0}\n'
      )
      const text = (s: string) => (JSON.parse(s) as { result: { content: { text: string }[] } }).result.content[0]!.text
      expect(text(appended!)).toContain('"metadata": {\n      "big": 12345678901234567890,\n      "f": 1.0,\n      "z": -0.0\n    }')
      expect(text(listed!)).toContain('"metadata": {\n        "big": 12345678901234567890,\n        "f": 1.0,\n        "z": -0.0\n      }')
    } finally {
      await server.stop()
    }
  })
})

describeUpstream('muster mcp against the upstream transcript (shared/fixtures/muse-mcp)', () => {
  type Message = {
    id: number
    result?: { content?: { text: string }[]; isError?: boolean; tools?: Record<string, unknown>[] }
    error?: { code: number; message: string }
  }
  // read when a test runs: the suite body is collected (and must not throw) even when ../shared is absent
  let transcript: Message[] = []
  beforeAll(() => {
    transcript = readFileSync(upstreamPath('muse-mcp', 'muse-mcp-transcript.out.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Message)
  })
  const out = (id: number) => transcript.find((t) => t.id === id)!
  const upstreamText = (id: number) => out(id).result!.content![0]!.text
  /** MUSE's real role files plus what the transcript shows of the rest of that project. */
  function upstreamProject(): string {
    const root = join(tmpDir(), 'muse')
    mkdirSync(join(root, 'memory'), { recursive: true })
    cpSync(upstreamPath('muse-real', '.muse'), join(root, '.muse'), { recursive: true })
    for (const f of readdirSync(join(root, '.muse'))) chmodSync(join(root, '.muse', f), 0o644)
    chmodSync(join(root, '.muse'), 0o755)
    writeFileSync(join(root, '.muse', 'nol0.md'), '# nol0\n\nA role created by /role: no L0 line.\n')
    writeFileSync(
      join(root, 'MEMORIES.md'),
      '## Releases\n- **[FACT] MCP server added v2.15.0** (source: memory/2026-03-15.md) [PERMANENT]\n'
    )
    writeFileSync(join(root, 'memory', '2026-03-15.md'), '# 2026-03-15\n\n## [BUILD] MCP server\n- shipped v2.15.0\n')
    return resolve(root)
  }
  const dated = (s: string) => s.replace(/\d{4}-\d\d-\d\d \d\d:\d\d/g, '<stamp>').replace(/\d{4}-\d\d-\d\d\.md/g, '<today>.md')

  it('tools/list: the same six tools, descriptions and input schemas', async () => {
    const client = await connect(upstreamProject())
    const ours = (await client.listTools()).tools.filter((t) => t.name.startsWith('muse_'))
    const theirs = JSON.parse(readFileSync(upstreamPath('muse-mcp', 'muse-mcp-tools-list.json'), 'utf8')) as {
      name: string
      description: string
      inputSchema: Record<string, unknown>
    }[]
    expect(
      ours.map((t) => ({ name: t.name, description: t.description, inputSchema: normalise(t.inputSchema as Record<string, unknown>) }))
    ).toEqual(theirs)
    expect(out(2).result!.tools!.map((t) => t.name)).toEqual(theirs.map((t) => t.name))
  })

  it('every tool call gives the transcript’s text (dates of this run aside; the long-term output well-formed)', async () => {
    const client = await connect(upstreamProject())
    const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as Content
    expect(textOf(await call('muse_get_status', {}))).toBe(upstreamText(3))
    expect(textOf(await call('muse_list_roles', {}))).toBe(upstreamText(4))
    const traversal = await call('muse_get_role', { role: '../../etc/passwd' })
    expect([textOf(traversal), traversal.isError]).toEqual([upstreamText(5), out(5).result!.isError])
    const missing = await call('muse_get_role', { role: 'nonexistent' })
    expect([textOf(missing), missing.isError]).toEqual([upstreamText(6), out(6).result!.isError])
    expect(
      dated(
        textOf(
          await call('muse_send_directive', {
            target_role: 'qa',
            directive_id: 'S042',
            title: 'Re-verify AC3',
            body: 'patch trailing-newline warning fixed'
          })
        )
      )
    ).toBe(dated(upstreamText(7)))
    expect(dated(textOf(await call('muse_write_memory', { content: 'QA session notes', section: 'QA Session' })))).toBe(
      dated(upstreamText(8))
    )
    expect(textOf(await call('muse_search_memory', { query: 'v2.15', scope: 'all' }))).toBe(upstreamText(9))
    // upstream's long-term output lost its newline after the header (a bug): ours keeps it
    expect(upstreamText(10)).toMatch(/^=== MEMORIES\.md ===2:/)
    expect(textOf(await call('muse_search_memory', { query: 'v2.15', scope: 'longterm' }))).toBe(
      upstreamText(10).replace('===2:', '===\n2:')
    )
    expect(textOf(await call('muse_search_memory', { query: 'zzz', scope: 'recent' }))).toBe(upstreamText(11))
    // id 12: an unknown tool is a JSON-RPC -32601 error, with upstream's text
    expect(out(12).error).toEqual({ code: -32601, message: 'Unknown tool: bogus' })
    await expect(call('bogus', {})).rejects.toThrow(`MCP error -32601: ${out(12).error!.message}`)
    expect(await client.ping()).toEqual(out(13).result)
  })
})
