import { describe, expect, it } from 'vitest'
import { DirectiveStateSchema, type Directive, type LocatedOccurrence } from './contract/muse'
import {
  countStates,
  DIRECTIVE_STATES,
  directiveNumber,
  matchesDirective,
  queryDirectives,
  queryNotices,
  sortDirectives,
  textTerms,
  type LocatedNotice
} from './directive-query'

function occ(patch: Partial<LocatedOccurrence>): LocatedOccurrence {
  return {
    form: 'spec',
    id: 'S112',
    target: 'ORBIT/BUILD',
    mark: 'pending',
    statusText: '',
    title: 'Retry budget 默认值下调到 2',
    body: '线上数据: 92% 的成功重试发生在第 1-2 次。',
    date: null,
    line: 46,
    endLine: 48,
    role: 'strategy',
    file: 'strategy.md',
    section: '📡 战略指令队列',
    sectionKind: 'outgoing',
    project: 'helm',
    ...patch
  }
}

function directive(patch: Partial<Directive> & { occurrences?: LocatedOccurrence[] }): Directive {
  const occurrences = patch.occurrences ?? [occ({})]
  return {
    key: `${patch.id ?? 'S112'}→${patch.target ?? 'ORBIT/BUILD'}`,
    id: 'S112',
    target: 'ORBIT/BUILD',
    resolution: { kind: 'role', project: 'orbit', key: 'ORBIT', role: 'build', file: 'build.md' },
    state: 'pending',
    title: occurrences[0]!.title,
    source: occurrences[0]!,
    receipt: null,
    ...patch,
    occurrences
  }
}

/** A small fleet: a delivered directive with a receipt, two pending ones, ALL, an unresolved one. */
const S101 = directive({
  id: 'S101',
  state: 'delivered',
  title: '插件 API 冻结为 v1',
  occurrences: [
    occ({
      id: 'S101',
      mark: 'done',
      title: '插件 API 冻结为 v1',
      body: '`definePlugin()` 签名冻结',
      statusText: '— 已传递 2026-03-21 09:30'
    }),
    occ({
      id: 'S101',
      form: 'head',
      project: 'orbit',
      role: 'build',
      file: 'build.md',
      sectionKind: 'received',
      mark: 'done',
      date: '3/20',
      statusText: '已接收 3/21 09:30',
      title: '插件 API 冻结为 v1',
      body: '> 已随 v1.6.0 发布'
    })
  ]
})
const S112 = directive({})
const S112QA = directive({
  target: 'ORBIT/QA',
  resolution: { kind: 'role', project: 'orbit', key: 'ORBIT', role: 'qa', file: 'qa.md' },
  title: 'Retry budget 全局上限回归',
  occurrences: [occ({ target: 'ORBIT/QA', title: 'Retry budget 全局上限回归', body: '重点回归 AC4' })]
})
const S113 = directive({
  id: 'S113',
  target: 'ALL',
  resolution: { kind: 'all' },
  title: '四月冻结窗口',
  occurrences: [occ({ id: 'S113', target: 'ALL', title: '四月冻结窗口', body: '只合并 P0' })]
})
const S098 = directive({
  key: 'S098→KITE/GM@HELM',
  id: 'S098',
  target: 'KITE/GM',
  state: 'untracked',
  resolution: { kind: 'unresolved', reason: 'no registered project with key KITE' },
  title: 'Kite 暂停',
  occurrences: [occ({ id: 'S098', form: 'loose', target: 'KITE/GM', mark: 'none', title: 'Kite 暂停', body: '' })]
})
const S040v3 = directive({
  id: 'S040v3',
  target: 'ORBIT/GROWTH',
  state: 'received',
  resolution: { kind: 'role', project: 'orbit', key: 'ORBIT', role: 'growth', file: 'growth.md' },
  title: '每帖补至 3 图',
  source: null,
  occurrences: [
    occ({
      id: 'S040v3',
      form: 'head',
      project: 'orbit',
      role: 'growth',
      file: 'growth.md',
      sectionKind: 'received',
      date: '3/15 10:38',
      title: '每帖补至 3 图',
      body: '图2 对比表'
    })
  ]
})
const ALL = [S098, S101, S112QA, S040v3, S113, S112]
const keys = (list: readonly Directive[]) => list.map((d) => d.key)

describe('directive query: states', () => {
  it('takes the state names from the contract schema, in list order', () => {
    expect(DIRECTIVE_STATES).toBe(DirectiveStateSchema.options)
    expect(DIRECTIVE_STATES).toEqual(['pending', 'received', 'delivered', 'skipped', 'frozen', 'active', 'untracked'])
  })

  it('filters by state and counts every state plus the total', () => {
    expect(keys(queryDirectives(ALL, { state: 'pending' }))).toEqual(['S113→ALL', 'S112→ORBIT/BUILD', 'S112→ORBIT/QA'])
    expect(keys(queryDirectives(ALL, { state: 'untracked' }))).toEqual(['S098→KITE/GM@HELM'])
    expect(countStates(ALL)).toEqual({ all: 6, pending: 3, received: 1, delivered: 1, skipped: 0, frozen: 0, active: 0, untracked: 1 })
    expect(countStates([])).toEqual({ all: 0, pending: 0, received: 0, delivered: 0, skipped: 0, frozen: 0, active: 0, untracked: 0 })
  })
})

describe('directive query: project, role and target', () => {
  it('project: the sender, the receipt or the resolved target, ignoring case', () => {
    expect(keys(queryDirectives(ALL, { project: 'helm' }))).toEqual([
      'S113→ALL',
      'S112→ORBIT/BUILD',
      'S112→ORBIT/QA',
      'S101→ORBIT/BUILD',
      'S098→KITE/GM@HELM'
    ])
    // orbit: every resolved target in orbit, and S101 whose receipt is in orbit; not ALL or KITE
    expect(keys(queryDirectives(ALL, { project: 'ORBIT' }))).toEqual([
      'S112→ORBIT/BUILD',
      'S112→ORBIT/QA',
      'S040v3→ORBIT/GROWTH',
      'S101→ORBIT/BUILD'
    ])
    expect(queryDirectives(ALL, { project: 'kite' })).toEqual([])
  })

  it('role: a role whose file holds an occurrence, or the resolved target role, ignoring case', () => {
    expect(keys(queryDirectives(ALL, { role: 'QA' }))).toEqual(['S112→ORBIT/QA'])
    expect(keys(queryDirectives(ALL, { role: 'build' }))).toEqual(['S112→ORBIT/BUILD', 'S101→ORBIT/BUILD'])
    expect(keys(queryDirectives(ALL, { role: 'growth' }))).toEqual(['S040v3→ORBIT/GROWTH'])
    // an unresolved target's role is not a role of the fleet
    expect(queryDirectives(ALL, { role: 'gm' })).toEqual([])
  })

  it('target: the canonical target as listed, ignoring case; unresolved targets by their text', () => {
    expect(keys(queryDirectives(ALL, { target: 'orbit/build' }))).toEqual(['S112→ORBIT/BUILD', 'S101→ORBIT/BUILD'])
    expect(keys(queryDirectives(ALL, { target: 'ALL' }))).toEqual(['S113→ALL'])
    expect(keys(queryDirectives(ALL, { target: 'KITE/GM' }))).toEqual(['S098→KITE/GM@HELM'])
    expect(queryDirectives(ALL, { target: 'ORBIT' })).toEqual([])
  })

  it('every filter must pass; empty and null fields filter nothing', () => {
    expect(
      keys(queryDirectives(ALL, { state: 'pending', target: 'ORBIT/BUILD', project: 'orbit', role: 'strategy', text: 'retry' }))
    ).toEqual(['S112→ORBIT/BUILD'])
    expect(queryDirectives(ALL, { state: 'delivered', target: 'ORBIT/QA' })).toEqual([])
    expect(queryDirectives(ALL, { state: null, project: '', role: null, target: '', text: '  ' })).toHaveLength(6)
    expect(matchesDirective(S112, {})).toBe(true)
  })
})

describe('directive query: text matching', () => {
  const text = (t: string) => keys(queryDirectives(ALL, { text: t }))

  it('splits on whitespace, folds case and VS16; blank text matches all', () => {
    expect(textTerms('  Retry\tBUDGET\n 📡\uFE0F ')).toEqual(['retry', 'budget', '📡'])
    expect(textTerms('')).toEqual([])
    expect(textTerms(null)).toEqual([])
    expect(text(' ')).toHaveLength(6)
  })

  it('every term must occur, anywhere and in any order', () => {
    expect(text('retry 回归')).toEqual(['S112→ORBIT/QA'])
    expect(text('回归 retry')).toEqual(['S112→ORBIT/QA'])
    expect(text('retry 下调 nothing')).toEqual([])
    expect(text('RETRY')).toEqual(['S112→ORBIT/BUILD', 'S112→ORBIT/QA'])
  })

  it('searches id, target, title and every occurrence: body, status, date, project, role, file', () => {
    expect(text('s040v3')).toEqual(['S040v3→ORBIT/GROWTH']) // id
    expect(text('kite/gm')).toEqual(['S098→KITE/GM@HELM']) // target
    expect(text('四月冻结')).toEqual(['S113→ALL']) // title
    expect(text('重点回归')).toEqual(['S112→ORBIT/QA']) // the source's body
    expect(text('v1.6.0')).toEqual(['S101→ORBIT/BUILD']) // the receipt's body (not the primary occurrence)
    expect(text('已传递')).toEqual(['S101→ORBIT/BUILD']) // status text
    expect(text('10:38')).toEqual(['S040v3→ORBIT/GROWTH']) // date
    expect(text('growth.md')).toEqual(['S040v3→ORBIT/GROWTH']) // file
    expect(text('build.md 签名')).toEqual(['S101→ORBIT/BUILD']) // a file and a body of different occurrences
    expect(text('strategy')).toHaveLength(5) // role: every directive sent from strategy.md (not S040v3, only a receipt)
    expect(text('helm kite')).toEqual(['S098→KITE/GM@HELM']) // the sender's project and the target
  })

  it('does not search other fields (section names, resolution reasons)', () => {
    expect(text('战略指令队列')).toEqual([])
    expect(text('registered')).toEqual([])
  })

  it('VS16 in the text or in the query does not matter', () => {
    const vs = directive({ key: 'vs', title: '🛠\uFE0F 技术栈 迁移', occurrences: [occ({ title: '🛠\uFE0F 技术栈 迁移' })] })
    expect(keys(queryDirectives([vs], { text: '🛠 技术栈' }))).toEqual(['vs'])
    expect(keys(queryDirectives([directive({ key: 'plain', title: '🛠 技术栈' })], { text: '🛠\uFE0F' }))).toEqual(['plain'])
  })
})

describe('directive query: ordering', () => {
  it('pending first, then received, delivered, untracked; newest S-number first; then target and key', () => {
    expect(keys(sortDirectives(ALL))).toEqual([
      'S113→ALL',
      'S112→ORBIT/BUILD',
      'S112→ORBIT/QA',
      'S040v3→ORBIT/GROWTH',
      'S101→ORBIT/BUILD',
      'S098→KITE/GM@HELM'
    ])
    expect(keys(queryDirectives(ALL, {}))).toEqual(keys(sortDirectives(ALL)))
    // sorting returns a new array and leaves the input alone
    const input = [...ALL]
    sortDirectives(input)
    expect(input).toEqual(ALL)
  })

  it('numbers ids by their digits: suffixes are ignored, S0XX-like ids count as 0', () => {
    expect(directiveNumber('S040v3')).toBe(40)
    expect(directiveNumber('S229+')).toBe(229)
    // bounded: an id of S plus 400 digits is not numbered (it broke the next ids: S000, S049 reused)
    expect(directiveNumber(`S${'9'.repeat(400)}`)).toBe(0)
    expect(directiveNumber('S1234567')).toBe(0)
    expect(directiveNumber('S12345')).toBe(0)
    expect(directiveNumber(`S040${'v'.repeat(12)}`)).toBe(0)
    expect(directiveNumber('S029+S035')).toBe(29)
    expect(directiveNumber('S9999')).toBe(9999)
    expect(directiveNumber('S1000')).toBe(1000)
    expect(directiveNumber('X12')).toBe(0)
    const a = directive({ key: 'a', id: 'S099', state: 'pending' })
    const b = directive({ key: 'b', id: 'S1000', state: 'pending' })
    const c = directive({ key: 'c', id: 'S099', state: 'pending', target: 'ALL' })
    expect(keys(sortDirectives([a, c, b]))).toEqual(['b', 'c', 'a'])
  })
})

describe('directive query: notices', () => {
  const notice = (patch: Partial<LocatedNotice>): LocatedNotice => ({
    from: 'QA',
    to: 'BUILD',
    date: '2026-03-31 22:05',
    mark: 'pending',
    statusText: '待 BUILD 处理',
    title: 'BUILD→QA v1.8.0 — AC4 FAIL',
    body: '全局上限 20 未生效',
    line: 110,
    endLine: 118,
    role: 'build',
    file: 'build.md',
    section: '📡 QA→BUILD 通知',
    project: 'orbit',
    ...patch
  })
  const FAIL = notice({})
  const DONE = notice({
    from: 'GROWTH',
    mark: 'done',
    statusText: '已完成',
    title: '文档站迁移',
    body: 'VitePress',
    date: '2026-03-28 11:20'
  })
  const ELSEWHERE = notice({
    from: 'BUILD',
    to: 'GROWTH',
    role: 'growth',
    file: 'growth.md',
    mark: 'none',
    statusText: 'v1.7→v1.8 同步',
    title: 'Retry budget 即将发布',
    project: 'lumen'
  })
  const NOTICES = [FAIL, DONE, ELSEWHERE]

  it('state pending keeps 🟡 notices, any other state the rest', () => {
    expect(queryNotices(NOTICES, { state: 'pending' })).toEqual([FAIL])
    expect(queryNotices(NOTICES, { state: 'delivered' })).toEqual([DONE, ELSEWHERE])
  })

  it('project, role (holder, sender or recipient) and text as for directives; target does not apply', () => {
    expect(queryNotices(NOTICES, { project: 'LUMEN' })).toEqual([ELSEWHERE])
    expect(queryNotices(NOTICES, { role: 'qa' })).toEqual([FAIL])
    expect(queryNotices(NOTICES, { role: 'growth' })).toEqual([DONE, ELSEWHERE])
    expect(queryNotices(NOTICES, { text: 'retry 同步' })).toEqual([ELSEWHERE])
    expect(queryNotices(NOTICES, { text: 'vitepress 11:20' })).toEqual([DONE])
    expect(queryNotices(NOTICES, { target: 'NOPE/NOPE' })).toEqual(NOTICES)
  })
})
