/**
 * Filtering by author on an older hub server (list/wait without `writer`) never fails because a
 * capability probe answered while a call was in flight (issue 36, point 7). A proxy holds every
 * `writer` refusal until the probes went out (test/helpers/mcp-hold-proxy.ts), which is exactly
 * the interleaving that made about 1 call in 4 fail with -32602: 16 concurrent calls in one
 * process, and 8 `muster events list|wait --from-agent` processes at once.
 */
import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { builtCli } from '../../../../test/helpers/built-cli'
import { runCliAtHome } from '../../../../test/helpers/cli'
import { startHubServer, type HubServer } from '../../../../test/helpers/hub-server'
import { holdProxy, type HoldProxy } from '../../../../test/helpers/mcp-hold-proxy'
import { tmpDir } from '../../../../test/helpers/tmp'
import { createHub } from '../store/schema'
import { appendEvent } from '../store/writer'
import { RemoteHub } from './remote-hub'

const TOKEN = 'caps-race-token-5e21'
const closers: (() => Promise<unknown> | unknown)[] = []
afterEach(async () => {
  while (closers.length) await closers.pop()!()
})

/** An older hub server (no `writer`) on a palace holding notes by alice and bob, behind a hold proxy. */
async function olderHub(probes: number, refuseProbes = false): Promise<{ server: HubServer; proxy: HoldProxy }> {
  const palace = join(tmpDir(), 'palace')
  const file = createHub(palace)
  for (const [from, body] of [
    ['alice', 'a1'],
    ['bob', 'b1'],
    ['alice', 'a2']
  ] as const)
    appendEvent(file.db, file.replicaId, { type: 'note', stream: 's', room: 'r', from_agent: from, body })
  file.close()
  const server = await startHubServer({ palace, token: TOKEN, legacy: true })
  closers.push(() => server.stop())
  const proxy = await holdProxy(server.url, probes, { refuseProbes })
  closers.push(() => proxy.close())
  return { server, proxy }
}

/** Runs the built CLI in its own process, without waiting on it. */
function cliProcess(home: string, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [builtCli(), ...args, '--home', home], {
      env: { ...process.env, HOME: home, MUSTER_NO_BACKGROUND: '1' },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let out = ''
    let err = ''
    p.stdout.on('data', (d: Buffer) => (out += d.toString()))
    p.stderr.on('data', (d: Buffer) => (err += d.toString()))
    p.on('close', (code) => resolve({ code: code ?? -1, out, err }))
  })
}

describe('author filters on an older hub server', () => {
  it('16 concurrent list and wait calls of one client all fall back to from_agent', async () => {
    const { proxy } = await olderHub(1)
    const hub = new RemoteHub({ url: proxy.url, token: TOKEN, home: tmpDir() })
    closers.push(() => hub.close())
    const calls = Array.from({ length: 16 }, (_, i) =>
      i % 2
        ? hub.list({ from_agent: 'alice' }).then((p) => p.events.map((e) => e.body))
        : hub.wait({ from_agent: 'bob', timeout_ms: 30_000 }).then((w) => w.events.map((e) => e.body))
    )
    const results = await Promise.allSettled(calls)
    const failed = results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))
    expect(failed).toEqual([])
    for (const [i, r] of results.entries()) expect((r as PromiseFulfilledResult<string[]>).value).toEqual(i % 2 ? ['a1', 'a2'] : ['b1'])
  })

  it('when the probe fails, each call follows the refusal of the argument it sent', async () => {
    const { proxy } = await olderHub(1, true)
    const hub = new RemoteHub({ url: proxy.url, token: TOKEN, home: tmpDir() })
    closers.push(() => hub.close())
    const results = await Promise.allSettled(
      Array.from({ length: 16 }, () => hub.listFromServer({ from_agent: 'alice' }).then((p) => p.events.map((e) => e.body)))
    )
    expect(results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))).toEqual([])
    expect(results.map((r) => (r as PromiseFulfilledResult<string[]>).value)).toEqual(Array(16).fill(['a1', 'a2']))
  })

  it('8 muster events list|wait --from-agent processes at once all answer', async () => {
    const { proxy } = await olderHub(8)
    const home = tmpDir('muster-home-')
    writeFileSync(join(home, 'hub-token'), TOKEN + '\n')
    expect(await runCliAtHome(home, 'hubs', 'add', '--url', proxy.url, '--token-file', 'hub-token', '--name', 'old')).toMatchObject({
      code: 0
    })
    const runs = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        i % 2
          ? cliProcess(home, 'events', 'list', '--hub', 'old', '--from-agent', 'alice', '--json')
          : cliProcess(home, 'events', 'wait', '--hub', 'old', '--from-agent', 'bob', '--timeout-ms', '30000', '--json')
      )
    )
    for (const [i, r] of runs.entries()) {
      expect(r, r.err).toMatchObject({ code: 0, err: '' })
      expect((JSON.parse(r.out) as { events: { body: string }[] }).events.map((e) => e.body)).toEqual(i % 2 ? ['a1', 'a2'] : ['b1'])
    }
  }, 300_000)
})
