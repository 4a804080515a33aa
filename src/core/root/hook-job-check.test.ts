/**
 * Hook-job files written by an agent (same OS user, so it can write the spool): the drainer records
 * only the jobs its fast path could have written, for this home, a registered hub and a rule of this
 * home's allowlist that allows the call; the rest are refused with a line and nothing is recorded,
 * and no hub is ever created where a job says.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { hookHome } from '../../../test/helpers/hook-home'
import { claudeBashCall } from '../../../test/helpers/hook-payloads'
import { tmpDir } from '../../../test/helpers/tmp'
import { prepareJob, type HookJob } from '../approvals'
import { drainHookJobs } from './drain-hook-jobs'
import { openRoot } from './root'

describe('the hook spool drainer checks every job', () => {
  it('records a job of a registered hub and a signed rule; refuses forged ones, creating nothing', async () => {
    const { home, palace, service } = await hookHome('desk-muster')
    const rule = await service.call('approvals.ruleSave', { agent_pattern: 'mac-claude', tool_name: 'Bash', input_pattern: 'npm test' })
    await service.close()
    const elsewhere = join(tmpDir(), 'not-a-hub')
    const base: HookJob = {
      options: { agent: 'mac-claude', home, hub: 'main' },
      cwd: '/work/muse',
      env: {},
      call: claudeBashCall({ command: 'npm test' }) as unknown as HookJob['call'],
      rule: { id: rule.id, agent_pattern: 'mac-claude', tool_name: 'Bash', input_pattern: 'npm test', signature: null }
    }
    const forged: [string, HookJob][] = [
      ['another palace', { ...base, options: { ...base.options, hub: undefined, palace: elsewhere } }],
      ['another home', { ...base, options: { ...base.options, home: tmpDir() } }],
      ['a rule that does not exist', { ...base, rule: { ...base.rule, id: 999 } }],
      ['a rule it is not', { ...base, rule: { ...base.rule, input_pattern: '*' } }],
      ['a call the rule does not allow', { ...base, call: { ...base.call, tool_input: { command: 'rm -rf /' } } }],
      ['an agent the rule does not cover', { ...base, options: { ...base.options, agent: 'other-agent' } }]
    ]
    for (const [, job] of forged) prepareJob(home, job).offer()
    prepareJob(home, base).offer()
    // a job's own environment chooses no hub: the registered one is, and nothing is made where it points
    prepareJob(home, { ...base, options: { ...base.options, hub: undefined }, env: { MEMPALACE_PALACE_PATH: elsewhere } }).offer()
    const warned: string[] = []
    expect(await drainHookJobs(home, (l) => warned.push(l), openRoot)).toBe(2)
    expect(warned).toHaveLength(forged.length)
    for (const w of warned) expect(w).toMatch(/^muster: refused the hook job \S+: .+; nothing was recorded$/)
    expect(warned.join('\n')).toMatch(/another Muster home/)
    expect(warned.join('\n')).toMatch(/rule #999 does not exist/)
    expect(warned.join('\n')).toMatch(/is not the rule it names/)
    expect(warned.join('\n')).toMatch(/does not allow this call for other-agent/)
    expect(existsSync(elsewhere)).toBe(false)
    // the good jobs reached the registered hub: a request, its allowlist decision and its delivery each
    const { LocalHub } = await import('../hub/local/local-hub')
    const hub = new LocalHub(palace, { busyTimeoutMs: 300 })
    const events = (await hub.list({ order: 'asc', limit: 50 })).events
    await hub.close()
    expect(events.map((e) => e.type)).toEqual([
      'approval.request',
      'approval.decision',
      'approval.receipt',
      'approval.request',
      'approval.decision',
      'approval.receipt'
    ])
  })
})
