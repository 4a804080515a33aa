/**
 * The parts of connecting agents that need no harness: the default agent id (a valid one from any
 * host name), the PATH lookup (executable files only, first match wins), and the test request
 * (marked as a test in the hub and read back as one, never confused with a real call).
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tmpDir } from '../../../test/helpers/tmp'
import { isAgentId } from '../../shared/agent-id'
import { foldApproval, requestAppend } from './approval-events'
import { defaultAgent, onPath, testAsk, TEST_COMMAND } from './connect'
import { adapterFor } from './harnesses'
import type { HubEventEnvelope } from '../../shared/contract/hub-types'
import type { DecisionTrust } from './decision-trust'

const claude = adapterFor('claude')!

describe('connect', () => {
  it('names the default agent after the machine and the harness, always a valid agent id', () => {
    expect(defaultAgent(claude, 'mac.local')).toBe('mac-claude')
    expect(defaultAgent(adapterFor('codex')!, 'Ada’s MacBook Pro.local')).toBe('Ada-s-MacBook-Pro-codex')
    expect(defaultAgent(claude, '')).toBe('this-claude')
    for (const host of ['…', 'a b', 'x'.repeat(300)]) expect(isAgentId(defaultAgent(claude, host))).toBe(true)
  })

  it('finds a command on PATH only as an executable file, first folder first', () => {
    const dir = tmpDir()
    const [a, b, c] = ['a', 'b', 'c'].map((d) => join(dir, d))
    for (const d of [a!, b!, c!]) mkdirSync(d)
    writeFileSync(join(a!, 'claude'), 'not executable')
    mkdirSync(join(b!, 'claude'))
    writeFileSync(join(c!, 'claude'), '#!/bin/sh\n')
    chmodSync(join(c!, 'claude'), 0o755)
    expect(onPath('claude', [a, b, c].join(':'))).toBe(join(c!, 'claude'))
    expect(onPath('claude', [a, b].join(':'))).toBeNull()
    expect(onPath('claude', undefined)).toBeNull()
  })

  it('marks the test request in the hub and reads it back as a test', () => {
    const ask = testAsk(claude, 'mac-claude', 'desk-ada')
    expect(ask).toMatchObject({ agent: 'mac-claude', to_agent: 'desk-ada', harness: 'claude-code', tool_name: 'Bash', test: true })
    expect(ask.tool_input.command).toBe(TEST_COMMAND)
    const { append } = requestAppend(ask, 'appr_000000000001')
    expect(append.metadata).toMatchObject({ connect_test: true })
    const event = { ...append, id: 'evt_1', seq: 1, created_at: new Date().toISOString(), metadata: append.metadata } as HubEventEnvelope
    const trust = { checkDecision: () => ({ ok: false, why: 'none' }) } as unknown as DecisionTrust
    expect(foldApproval(event, [], { hub: 'h', palace: 'p' }, trust).test).toBe(true)
    // a real call carries no mark
    const real = requestAppend({ ...ask, test: undefined }, 'appr_000000000002').append
    expect(real.metadata).not.toHaveProperty('connect_test')
  })
})
