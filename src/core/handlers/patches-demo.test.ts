/**
 * The demo fleet's four patches through the service, as the Patches screen and the CLI see them:
 * the clean one applies and passes dya's configured test, the stale one conflicts, the tampered
 * and the forged-sha ones are refused before anything runs.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tmpDir } from '../../../test/helpers/tmp'
import { createService } from '../root'
import type { MusterService } from '../service-types'

let s: MusterService
let dir: string
const hub = { hub: 'demo' }
const byBody = async (start: string) => (await s.call('patch.list', hub)).patches.find((p) => p.event.body.startsWith(start))!

beforeAll(async () => {
  s = await createService({ home: tmpDir(), transport: 'http', watch: false })
  dir = (await s.call('demo.create', { dir: join(tmpDir(), 'fleet') })).dir
}, 240_000)
afterAll(async () => {
  await s?.close()
})

describe('demo patches', () => {
  it('lists every patch with its state and verdict', async () => {
    const list = await s.call('patch.list', hub)
    expect(list.counts.total).toBeGreaterThanOrEqual(6)
    expect((await byBody('patch ready: isValid() checks expiresAt')).state).toBe('waiting')
    expect((await byBody('patch ready: --recent for search.sh')).state).toBe('applied')
    expect((await byBody('patch ready: batch size logged')).verdict).toBe('refused')
    expect((await byBody('S050 fix:')).verdict).toBe('refused')
  })

  it('the tampered and the forged-sha patches are refused, with the reason', async () => {
    const tampered = await byBody('patch ready: batch size logged')
    const v = (await s.call('patch.verify', { ...hub, id: tampered.event.id })).verification
    expect(v.sha256.ok).toBe(false)
    await expect(s.call('patch.apply', { ...hub, id: tampered.event.id, project: 'atlas' })).rejects.toThrow(
      /apply refused: verification refused/
    )
    const forged = await byBody('S050 fix:')
    await expect(s.call('patch.apply', { ...hub, id: forged.event.id, project: 'atlas' })).rejects.toThrow(/quoted sha256/)
  })

  it('the stale patch fails git apply --check and acks failed; dya is untouched', async () => {
    const stale = await byBody('patch ready: label() shows the expiry date')
    const before = readFileSync(join(dir, 'dya', 'src/health/certificate.ts'), 'utf8')
    const run = await s.call('patch.apply', { ...hub, id: stale.event.id, project: 'dya' })
    let end = run
    while (end.phase !== 'done') end = await new Promise((r) => setTimeout(() => r(s.call('patch.run', { id: run.id })), 50))
    expect(end).toMatchObject({ outcome: 'failed', applied: false })
    expect(end.check!.output).toContain('patch does not apply')
    expect(readFileSync(join(dir, 'dya', 'src/health/certificate.ts'), 'utf8')).toBe(before)
  })

  it('a caller cannot hand an apply a command of its own: only the stored, audited one runs', async () => {
    const ready = await byBody('patch ready: isValid() checks expiresAt')
    const input = { ...hub, id: ready.event.id, project: 'dya', test_command: 'touch pwned' }
    await expect(s.call('patch.apply', input as never)).rejects.toMatchObject({ code: 'invalid_input' })
    expect(existsSync(join(dir, 'dya', 'pwned'))).toBe(false)
  })

  it("the clean patch applies with dya's configured test, which passes; ack applied", async () => {
    expect((await s.call('patch.settings', { project: 'dya' })).test_command).toBe('sh tests/expiry.sh')
    const ready = await byBody('patch ready: isValid() checks expiresAt')
    const pre = await s.call('patch.preflight', { ...hub, id: ready.event.id })
    expect(pre).toMatchObject({ project: 'dya', can_apply: true, test_command: 'sh tests/expiry.sh' })
    const run = await s.call('patch.apply', { ...hub, id: ready.event.id, project: 'dya' })
    let end = run
    while (end.phase !== 'done') end = await new Promise((r) => setTimeout(() => r(s.call('patch.run', { id: run.id })), 50))
    expect(end).toMatchObject({ outcome: 'applied', test: { status: 'passed', exit_code: 0 } })
    expect(end.test!.tail).toContain('ok 2 - isValid() is false after expiresAt\n2 passed')
    expect(readFileSync(join(dir, 'dya', 'src/health/certificate.ts'), 'utf8')).toContain('now < cert.expiresAt')
    expect((await byBody('patch ready: isValid() checks expiresAt')).state).toBe('applied')
  })
})
