/**
 * `muster mcp` end to end: the MCP SDK's own client spawns the built CLI over stdio and calls
 * every tool. MUSE's tools answer with MUSE's texts (the own fixture; the upstream transcript when
 * ../shared is there), the hub tools with MemPalace's shapes, and stdout carries nothing but
 * JSON-RPC (string ids included).
 */
import { spawn, spawnSync } from 'node:child_process'
import { chmodSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { describeUpstream, REPO_ROOT, upstreamPath } from '../../test/helpers/fixtures'
import { tmpDir } from '../../test/helpers/tmp'
import { createHub } from '../core/hub/store/schema'
import { ymd, ymdhm } from '../core/muse/edits'

const OUT = join(REPO_ROOT, 'out', `mcp-test-${process.pid}`)
const CLI = join(OUT, 'muster.mjs')
const clients: Client[] = []

beforeAll(() => {
  // built inside the repository so the bundle resolves node_modules and resources/ as installed
  const r = spawnSync(process.execPath, [join(REPO_ROOT, 'scripts', 'build-cli.mjs'), '--outdir', OUT], { encoding: 'utf8' })
  expect(r.status, r.stderr).toBe(0)
}, 120_000)
afterAll(async () => {
  for (const c of clients) await c.close()
  rmSync(OUT, { recursive: true, force: true })
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
      'mempalace_event_list',
      'mempalace_event_wait',
      'mempalace_event_append',
      'mempalace_event_ack',
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

  it('refuses bad calls: unknown tools and arguments, invocation-rule violations', async () => {
    const client = await connect(writableCopy(join(REPO_ROOT, 'test/fixtures/muse-mcp/project')))
    // The SDK answers an unknown tool as a tool error (MUSE's server used a JSON-RPC -32601 error)
    const bogus = (await client.callTool({ name: 'bogus', arguments: {} })) as Content
    expect(bogus).toMatchObject({ isError: true, content: [{ type: 'text', text: 'MCP error -32602: Tool bogus not found' }] })
    const extra = (await client.callTool({ name: 'muse_get_role', arguments: { role: 'qa', path: '/etc' } })) as Content
    expect(extra.isError).toBe(true)
    expect(textOf(extra)).toMatch(/Input validation error/)
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
    expect(await call('mempalace_event_append', { type: 'Bad Type', stream: 's', room: 'r', from_agent: 'a' })).toMatchObject({
      isError: true,
      json: { success: false }
    })
    expect(await call('mempalace_event_list', { since_event_id: 'evt_nope' })).toEqual({
      isError: true,
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
    while (out.split('\n').filter(Boolean).length < 4 && Date.now() - started < 15_000) await new Promise((r) => setTimeout(r, 50))
    child.stdin.end()
    await new Promise((r) => child.once('exit', r))
    // every stdout line is a JSON-RPC message (answers may come in any order)
    const lines = out
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id: unknown; result?: Record<string, unknown>; error?: { code: number } })
    const byId = new Map(lines.map((l) => [l.id, l]))
    expect([...byId.keys()].sort((a, b) => String(a).localeCompare(String(b)))).toEqual([7, 'call-9', 'init-1', 'x'])
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
    // id 12: upstream answered an unknown tool with JSON-RPC -32601; the SDK answers with a tool error
    expect(out(12).error).toEqual({ code: -32601, message: 'Unknown tool: bogus' })
    expect(await call('bogus', {})).toMatchObject({ isError: true, content: [{ text: 'MCP error -32602: Tool bogus not found' }] })
    expect(await client.ping()).toEqual(out(13).result)
  })
})
