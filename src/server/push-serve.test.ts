/**
 * Phone push end to end, in separate processes as in real use (issue 35): a real `muster serve`
 * with a subscribed device, a real `muster approve-hook` waiting on a call, and a local push-service
 * stand-in (`test/helpers/push-stand-in.ts`) that checks the VAPID JWT and decrypts the payload as
 * the browser would. The stand-in's self-signed certificate is trusted by the server's process
 * alone (NODE_EXTRA_CA_CERTS), as a push service's certificate is trusted through the system's.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MusterService } from '../core/service-types'
import { useBuiltHookHome } from '../../test/helpers/built-hook-home'
import { claudeBashJson } from '../../test/helpers/hook-payloads'
import { selfSignedCert, startPushStandIn, type PushStandIn } from '../../test/helpers/push-stand-in'
import { callServe, startServe, stopServe, type ServeProcess } from '../../test/helpers/serve-process'

const TOKEN = 'push-serve-token-0123456789'

let bin: string, home: string, palace: string, service: MusterService
useBuiltHookHome((made) => ({ bin, home, palace, service } = made), 'desk-muster')

let standIn: PushStandIn
let serve: ServeProcess
let hook: ChildProcess | undefined
beforeAll(async () => {
  const tls = selfSignedCert()
  standIn = await startPushStandIn(tls)
  serve = await startServe(bin, home, TOKEN, { NODE_EXTRA_CA_CERTS: tls.certFile })
}, 60_000)
afterAll(async () => {
  hook?.kill('SIGKILL')
  if (serve) await stopServe(serve, 10_000)
  await standIn?.close()
})

/** One call to the server; its parsed output (a failed call throws with the server's answer). */
async function call(method: string, input: unknown): Promise<Record<string, unknown>> {
  const r = await callServe(serve.port, TOKEN, method, input)
  if (r.status !== 200) throw new Error(`${method}: ${r.status} ${r.text}`)
  return JSON.parse(r.text) as Record<string, unknown>
}

describe('muster serve pushes a new approval to a subscribed phone', () => {
  it('the push service receives the approval, signed for it and readable only with the phone keys', async () => {
    const { public_key } = (await call('push.key', {})) as { public_key: string }
    const phone = standIn.subscribe(public_key)
    await call('push.subscribe', { name: 'phone', subscription: phone.subscription })
    // the queue as it stands is the baseline: only what is new from here on is pushed
    await call('needs.list', {})

    hook = spawn(process.execPath, [bin, 'approve-hook', '--home', home, '--palace', palace, '--agent', 'phone-agent'], {
      stdio: ['pipe', 'ignore', 'ignore'],
      env: { ...process.env, MUSTER_HOME: '' }
    })
    hook.stdin!.end(claudeBashJson({ command: 'git push --force origin main', description: 'push it' }))

    await expect.poll(() => standIn.arrivals.length, { timeout: 60_000, interval: 100 }).toBeGreaterThan(0)
    expect(standIn.refusals).toEqual([])
    const arrival = standIn.arrivals[0]!
    expect(arrival.device).toBe(phone.id)
    expect(arrival).toMatchObject({ urgency: 'high', claims: { aud: standIn.origin, sub: expect.stringMatching(/^mailto:/) } })
    const msg = JSON.parse(arrival.text) as Record<string, unknown>
    const pending = (await service.call('approvals.list', { hub: 'main' })).pending.find((p) => p.agent === 'phone-agent')!
    expect(msg).toEqual({
      v: 1,
      kind: 'approval',
      id: pending.id,
      agent: 'phone-agent',
      project: pending.project || null,
      tool: 'Bash',
      preview: expect.stringContaining('git push --force origin main'),
      link: expect.stringContaining(pending.id)
    })
    // nothing secret in it: no token, no paths of this machine
    expect(arrival.text).not.toContain(TOKEN)
    expect(arrival.text).not.toContain(home)
    expect(arrival.text).not.toContain(palace)
    const { devices } = (await call('push.devices', {})) as { devices: { last_push_at: string | null }[] }
    expect(devices[0]!.last_push_at).not.toBeNull()
  }, 120_000)
})
