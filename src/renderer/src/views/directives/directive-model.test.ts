import { describe, expect, it } from 'vitest'
import type { Directive, LocatedOccurrence, ProjectStatus } from '../../../../shared/api'
import { queryDirectives } from '../../../../shared/directive-query'
import { canPickUp, directiveRowTestId, pickupProject, targetOptions, toQuery } from './directive-model'

function occ(patch: Partial<LocatedOccurrence>): LocatedOccurrence {
  return {
    form: 'spec',
    id: 'S052',
    target: 'QA',
    mark: 'pending',
    statusText: '',
    title: 'v2.23.0 回归',
    body: '范围: logstream',
    date: null,
    line: 50,
    endLine: 52,
    role: 'strategy',
    file: 'strategy.md',
    section: '📡 战略指令队列',
    sectionKind: 'outgoing',
    project: 'muse',
    ...patch
  }
}

function directive(patch: Partial<Directive>): Directive {
  const source = occ({})
  return {
    key: 'muse:S052:MUSE/QA',
    id: 'S052',
    target: 'MUSE/QA',
    resolution: { kind: 'role', project: 'muse', key: 'MUSE', role: 'qa', file: 'qa.md' },
    state: 'pending',
    title: source.title,
    source,
    receipt: null,
    occurrences: [source],
    ...patch
  }
}

describe('directive model', () => {
  it('builds row test ids from the sender project and the target with / as _', () => {
    expect(directiveRowTestId(directive({}))).toBe('directive-row-muse-S052-MUSE_QA')
    const mcp = occ({ role: 'qa', file: 'qa.md', sectionKind: 'other', form: 'head' })
    expect(directiveRowTestId(directive({ source: null, occurrences: [mcp] }))).toBe('directive-row-muse-S052-MUSE_QA')
  })

  it('turns the screen filters into the shared directive query (empty and all filter nothing)', () => {
    expect(toQuery({ project: '', role: '', text: '' })).toEqual({ project: null, role: null, text: null, state: null })
    expect(toQuery({ project: 'muse', role: 'qa', text: '回归 logstream' }, 'pending')).toEqual({
      project: 'muse',
      role: 'qa',
      text: '回归 logstream',
      state: 'pending'
    })
    const list = [directive({ key: 'a', id: 'S041', state: 'delivered' }), directive({ key: 'b', id: 'S050' }), directive({})]
    expect(
      queryDirectives(list, toQuery({ project: 'muse', role: 'strategy', text: '回归 logstream' }, 'pending')).map((d) => d.key)
    ).toEqual(['muse:S052:MUSE/QA', 'b'])
    expect(queryDirectives(list, toQuery({ project: 'atlas', role: '', text: '' }))).toEqual([])
  })

  it('allows pickup only where the API can do it', () => {
    expect(canPickUp(directive({}))).toBe(true)
    expect(canPickUp(directive({ resolution: { kind: 'all' } }))).toBe(false)
    expect(canPickUp(directive({ state: 'delivered' }))).toBe(false)
    // A receipt without the sender's line cannot be completed.
    expect(canPickUp(directive({ state: 'received', source: null }))).toBe(false)
    // MUSE's MCP form lives in the target's file: still pending, picked up in that project.
    const mcp = occ({ project: 'muse', role: 'qa', file: 'qa.md', sectionKind: 'other' })
    const d = directive({ source: null, occurrences: [mcp] })
    expect(canPickUp(d)).toBe(true)
    expect(pickupProject(d)).toBe('muse')
  })

  it('offers ALL, bare roles of the hub project and PROJECT/ROLE for every role', () => {
    const role = (name: string) => ({ role: name }) as ProjectStatus['roles'][number]
    const fleet = [
      { name: 'muse', key: 'MUSE', roles: [role('strategy'), role('qa')] },
      { name: 'atlas', key: 'ATLAS', roles: [role('build')] }
    ] as ProjectStatus[]
    expect(targetOptions(fleet, 'muse')).toEqual(['ALL', 'STRATEGY', 'QA', 'MUSE/STRATEGY', 'MUSE/QA', 'ATLAS/BUILD'])
  })
})
