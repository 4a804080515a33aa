/**
 * The command line and presence, every party in its own process: `muster serve` for the home, the
 * real hook waiting on a hub, and `muster presence` / `muster approvals decide` handing what needs
 * presence to an authenticator. The test plays the operator's phone: a software authenticator
 * (test/helpers) that opens the printed page's requests against serve's API, as a browser would.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runBuiltCli } from '../../test/helpers/built-cli'
import { builtCliStarter } from '../../test/helpers/built-cli-processes'
import { SoftAuthenticator } from '../../test/helpers/soft-authenticator'
import { claudeBashJson } from '../../test/helpers/hook-payloads'
import { tmpDir } from '../../test/helpers/tmp'
import { createHub } from '../core/hub/store/schema'

/** Starts `muster ...args` in its own process. */
const start = builtCliStarter()

async function until<T>(f: () => T | null | undefined, what: string): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const v = f()
    if (v) return v
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`timed out waiting for ${what}`)
}

/** serve's API, as the operator's browser calls it (token, Host localhost). */
function api(base: string, token: string) {
  return async <T = Record<string, unknown>>(method: string, input: unknown): Promise<T> => {
    const res = await fetch(`${base}/api/call/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(input)
    })
    const body = (await res.json()) as T & { error?: string }
    if (!res.ok) throw new Error(`${method}: ${body.error}`)
    return body
  }
}

const proofOf = (a: ReturnType<SoftAuthenticator['assert']>) => ({
  credential: a.id,
  authenticator_data: a.response.authenticatorData,
  client_data_json: a.response.clientDataJSON,
  signature: a.response.signature
})

const bash = (command: string) => claudeBashJson({ command }, '/h/t.jsonl')

describe('muster presence and approvals decide (separate processes)', () => {
  it('refuses a policy without an authenticator, and hands every change and allow to one through muster serve', async () => {
    const home = join(tmpDir(), 'home')
    const palace = join(tmpDir(), 'palace')
    createHub(palace).close()
    const shown = runBuiltCli(home, 'presence', '--json')
    expect(shown.code, shown.err).toBe(0)
    expect(JSON.parse(shown.out)).toMatchObject({
      policy: 'off',
      warning: 'an agent running as you can approve its own calls',
      serve: null
    })
    const refused = runBuiltCli(home, 'presence', 'policy', 'risky')
    expect(refused.code).toBe(1)
    expect(refused.err).toMatch(/needs an enrolled authenticator/)
    expect(runBuiltCli(home, 'presence', 'enroll').err).toMatch(/start muster serve/)

    const serve = start(['serve', '--home', home, '--port', '0', '--json'])
    const openUrl = await until(() => /"url":\s*"([^"]+)"/.exec(serve.out())?.[1], 'muster serve')
    const port = new URL(openUrl).port
    const token = new URL(openUrl).searchParams.get('token')!
    const origin = `http://localhost:${port}`
    const call = api(origin, token)
    expect(JSON.parse(runBuiltCli(home, 'presence', '--json').out).serve).toBe(origin)

    // the phone enrols (a first authenticator needs no other)
    const phone = new SoftAuthenticator('localhost', origin)
    const { options } = await call<{ options: { challenge: string } }>('presence.enrolStart', { origin })
    await call('presence.enrolFinish', { origin, name: 'phone', response: phone.register(options.challenge, origin) })

    // the policy is set from the command line, confirmed on the phone
    const setting = start(['presence', 'policy', 'every-allow', '--home', home])
    const route = await until(() => /(#\/settings\?presence=policy&policy=every-allow)/.exec(setting.err())?.[1], 'the link')
    expect(setting.err()).toContain(`${origin}/${route}`)
    const ch = await call<{ challenge: string }>('presence.challenge', { op: 'policy', policy: 'every-allow' })
    await call('presence.setPolicy', { policy: 'every-allow', presence: proofOf(phone.assert(ch.challenge, { origin })) })
    expect((await setting.done).code).toBe(0)
    expect(setting.out()).toMatch(/presence policy: every-allow/)

    // an agent's call: `approvals decide … allow` cannot approve it on its own
    const hook = start(
      ['approve-hook', '--home', home, '--palace', palace, '--agent', 'mac-claude', '--timeout-ms', '60000'],
      bash('npm test')
    )
    const req = await until(() => {
      const r = runBuiltCli(home, 'events', 'list', '--palace', palace, '--type', 'approval.request', '--json')
      return (JSON.parse(r.out || '{"events":[]}') as { events: { id: string; correlation_id: string }[] }).events[0]
    }, 'the request')
    const deciding = start(['approvals', 'decide', req.correlation_id, 'allow', '--palace', palace, '--home', home])
    const link = await until(
      () => /(http:\/\/localhost:\d+\/#\/approvals\?\S+&confirm=allow)/.exec(deciding.err())?.[1],
      'the approval link'
    )
    expect(link).toContain(`id=${req.id}`)
    // nothing was decided yet: the hook still waits
    expect(hook.proc.exitCode).toBeNull()
    const dc = await call<{ challenge: string }>('approvals.presenceChallenge', { palace, id: req.id, decision: 'allow' })
    await call('approvals.decide', { palace, id: req.id, decision: 'allow', presence: proofOf(phone.assert(dc.challenge, { origin })) })
    expect((await deciding.done).code, deciding.err()).toBe(0)
    expect(deciding.out()).toMatch(new RegExp(`allowed ${req.correlation_id} with your presence`))
    expect((await hook.done).code).toBe(0)
    expect(JSON.parse(hook.out()).hookSpecificOutput.permissionDecision).toBe('allow')

    // a deny needs no presence
    const hook2 = start(
      ['approve-hook', '--home', home, '--palace', palace, '--agent', 'mac-claude', '--timeout-ms', '60000'],
      bash('rm -rf /')
    )
    const req2 = await until(() => {
      const r = runBuiltCli(home, 'events', 'list', '--palace', palace, '--type', 'approval.request', '--json')
      return (JSON.parse(r.out || '{"events":[]}') as { events: { id: string; correlation_id: string }[] }).events.find(
        (e) => e.id !== req.id
      )
    }, 'the second request')
    const denied = runBuiltCli(home, 'approvals', 'decide', req2.correlation_id, 'deny', '--palace', palace)
    expect(denied.code, denied.err).toBe(0)
    expect((await hook2.done).code).toBe(0)
    expect(JSON.parse(hook2.out()).hookSpecificOutput.permissionDecision).toBe('deny')
    serve.proc.kill('SIGTERM')
    await serve.done
  }, 180_000)
})
