/**
 * OpenCode answering a permission itself while Muster's hook waits (`opencode run` rejects every
 * one at once, `--auto` approves it): Muster's real plugin file, as install writes it, gets OpenCode's
 * `permission.asked` and then its `permission.replied`; the request leaves the inbox recorded as not
 * delivered (never as the operator's decision), the plugin replies nothing, and a late decision
 * of the operator is refused.
 */
import { spawnSync } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { builtCli } from '../../test/helpers/built-cli'
import { hookHome } from '../../test/helpers/hook-home'
import { tmpDir } from '../../test/helpers/tmp'
import type { MusterService } from '../core/service-types'
import type { ApprovalItem } from '../shared/api'

type Plugin = { event(o: { event: Record<string, unknown> }): Promise<void> }

let home: string
let palace: string
let service: MusterService
let server: Server
let serverUrl: string
const replies: string[] = []
let plugin: Plugin

beforeAll(async () => {
  ;({ home, palace, service } = await hookHome('desk-muster'))
  // OpenCode's server as the plugin sees it: every reply the plugin sends is kept
  server = createServer((req, res) => {
    let body = ''
    req.on('data', (d: Buffer) => (body += d))
    req.on('end', () => {
      replies.push(`${req.method} ${req.url} ${body}`)
      res.end('true')
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const addr = server.address()
  serverUrl = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`
  const file = join(tmpDir(), 'opencode', 'plugin', 'muster-approvals.js')
  const r = spawnSync(
    process.execPath,
    [
      builtCli(),
      '--home',
      home,
      'approve-hook',
      'install',
      '--harness',
      'opencode',
      '--agent',
      'lab-opencode',
      '--palace',
      palace,
      '--settings',
      file
    ],
    { encoding: 'utf8', env: { ...process.env, MUSTER_HOME: '' }, timeout: 120_000 }
  )
  expect(r.status, r.stderr).toBe(0)
  expect(r.stdout).toMatch(/`opencode run` cannot be gated/)
  const mod = (await import(pathToFileURL(file).href)) as { MusterApprovals(o: { serverUrl: string; directory: string }): Promise<Plugin> }
  plugin = await mod.MusterApprovals({ serverUrl, directory: '/work/lab' })
}, 240_000)
afterAll(async () => {
  await service?.close()
  await new Promise((r) => server?.close(r))
})

/** OpenCode's `permission.asked` event for a shell command. */
function asked(id: string, command: string) {
  return {
    id: `evt_${id}`,
    type: 'permission.asked',
    properties: {
      id,
      sessionID: 'ses_1',
      permission: 'bash',
      patterns: [command],
      metadata: { command },
      always: [command],
      tool: { callID: `call_${id}` }
    }
  }
}

/** The request for `command` once it is pending in the inbox. */
async function pendingFor(command: string): Promise<ApprovalItem> {
  for (let i = 0; i < 600; i++) {
    const item = (await service.call('approvals.list', { hub: 'main' })).pending.find((p) => p.tool_input.command === command)
    if (item) return item
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`no pending request for ${command}`)
}

/** OpenCode's `permission.replied` event (id `eventId`) for its permission `requestId`, handed to the plugin. */
const replied = (eventId: string, requestId: string, reply: string) =>
  plugin.event({ event: { id: eventId, type: 'permission.replied', properties: { sessionID: 'ses_1', requestID: requestId, reply } } })

/** The request of `id` in the history. */
async function historyItem(id: string): Promise<ApprovalItem | undefined> {
  return (await service.call('approvals.list', { hub: 'main', history_limit: 500 })).history.find((i) => i.id === id)
}

/**
 * OpenCode asks permission `id` for `command`; once the hook's request is pending, OpenCode replies
 * `reply` itself (event `eventId`). Returns the request and, once the plugin is done, its history item.
 */
async function answeredItself(id: string, command: string, eventId: string, reply: string) {
  const answered = plugin.event({ event: asked(id, command) })
  const req = await pendingFor(command)
  await replied(eventId, id, reply)
  await answered
  return { req, item: await historyItem(req.id) }
}

describe.skipIf(process.platform === 'win32')('OpenCode answers a permission itself', () => {
  it('opencode run rejects it: recorded as not delivered, nothing replied, a late allow refused', async () => {
    const { req, item } = await answeredItself('per_run1', 'make deploy', 'evt_r1', 'reject')
    expect(item).toMatchObject({ state: 'abandoned' })
    expect(item!.decision!.reason).toMatch(/^not delivered: OpenCode rejected this permission itself .*`opencode run` rejects every one/)
    expect(replies).toEqual([])
    await expect(service.call('approvals.decide', { hub: 'main', id: req.id, decision: 'allow' })).rejects.toThrow(
      /no agent is waiting .*not delivered: OpenCode rejected/
    )
    expect((await historyItem(req.id))!.decision!.decision).toBe('timeout')
  }, 240_000)

  it('opencode run --auto approves it: recorded as not delivered, saying the call ran without the operator', async () => {
    const { item } = await answeredItself('per_run2', 'make release', 'evt_r2', 'once')
    expect(item).toMatchObject({ state: 'abandoned' })
    expect(item!.decision!.reason).toMatch(/^not delivered: OpenCode approved this permission itself .*the call ran without you/)
    expect(replies).toEqual([])
  }, 240_000)

  it('answered at once, before the hook could ask: nothing is left pending and nothing is replied', async () => {
    const answered = plugin.event({ event: asked('per_run3', 'make clean') })
    await replied('evt_r3', 'per_run3', 'reject')
    await answered
    const list = await service.call('approvals.list', { hub: 'main', history_limit: 500 })
    expect(list.pending.filter((p) => p.tool_input.command === 'make clean')).toEqual([])
    for (const h of list.history.filter((i) => i.tool_input.command === 'make clean')) expect(h.state).toBe('abandoned')
    expect(replies).toEqual([])
  }, 240_000)

  it('the operator answers first (opencode serve): the plugin replies, as before', async () => {
    const answered = plugin.event({ event: asked('per_serve', 'make test') })
    const req = await pendingFor('make test')
    await service.call('approvals.decide', { hub: 'main', id: req.id, decision: 'allow' })
    await answered
    expect(replies).toEqual([`POST /permission/per_serve/reply?directory=%2Fwork%2Flab {"reply":"once"}`])
    // OpenCode then says it was replied (its own echo of the plugin's reply): nothing more happens
    await replied('evt_s', 'per_serve', 'once')
    expect((await historyItem(req.id))!.state).toBe('allow')
  }, 240_000)
})
