import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { describeUpstream, REPO_ROOT, upstreamPath } from '../../../test/helpers/fixtures'
import { splitBody } from './body'

const own = (name: string) => readFileSync(join(REPO_ROOT, 'test/fixtures/squad-notes', name), 'utf8')
const agents = (text: string) => splitBody(text).values.map((v) => (v.value as { timestamp: string }).timestamp)

describe('splitting note bodies (own fixtures)', () => {
  it('one object', () => {
    const s = splitBody(own('after-add.txt'))
    expect(s.shape).toBe('object')
    expect(s.values).toHaveLength(1)
    expect(s.values[0]).toMatchObject({ line: 1, endLine: 1, value: { agent: 'Seven', type: 'decision', promote_to_permanent: true } })
    expect(s.unparseable).toEqual([])
  })

  it('objects separated by a blank line (git notes append)', () => {
    const s = splitBody(own('after-append.txt'))
    expect(s.shape).toBe('appended')
    expect(s.values.map((v) => v.line)).toEqual([1, 3])
    expect(agents(own('after-append.txt'))).toEqual(['2026-04-02T09:15:00Z', '2026-04-02T10:40:00Z'])
  })

  it('sorted JSON Lines (cat_sort_uniq merge)', () => {
    const s = splitBody(own('after-cat_sort_uniq-merge.txt'))
    expect(s.shape).toBe('jsonl')
    expect(s.values.map((v) => v.line)).toEqual([1, 2, 3, 4])
  })

  it('pretty-printed JSON written by hand', () => {
    const s = splitBody(own('hand-written-pretty.txt'))
    expect(s.shape).toBe('pretty')
    expect(s.values).toEqual([
      { line: 1, endLine: 10, value: expect.objectContaining({ agent: 'Worf', findings: { p99_ms: 41, bypass: false } }) }
    ])
  })

  it('a damaged body keeps every readable note and reports the rest with its lines', () => {
    const s = splitBody(own('damaged.txt'))
    expect(agents(own('damaged.txt'))).toEqual(['2026-04-03T09:00:00Z', '2026-04-03T10:00:00Z'])
    expect(s.values.map((v) => v.line)).toEqual([1, 6])
    expect(s.unparseable).toEqual([
      {
        line: 3,
        text: '{"agent":"Worf","timestamp":"2026-04-03T09:30:00Z","type":"progress","content":"half a note, the editor crashed\nnot json at all'
      }
    ])
  })

  it('mixtures, braces inside strings, scalars, CRLF and empty bodies', () => {
    const mixed = '{"a":1}\n{"b":"} not the end {"}\n\n{\n  "c": [1, {"d": 2}]\n}\n'
    const s = splitBody(mixed)
    expect(s.shape).toBe('mixed')
    expect(s.values.map((v) => v.value)).toEqual([{ a: 1 }, { b: '} not the end {' }, { c: [1, { d: 2 }] }])
    expect(splitBody('"just a string"\n42\n').values.map((v) => v.value)).toEqual(['just a string', 42])
    expect(splitBody('{"a":1}\r\n\r\n{"b":2}\r\n').shape).toBe('appended')
    expect(splitBody('  \n\n')).toEqual({ values: [], unparseable: [], shape: 'empty' })
    expect(splitBody('{"a":')).toEqual({ values: [], unparseable: [{ line: 1, text: '{"a":' }], shape: 'unparseable' })
  })
})

const upstream = upstreamPath('squad-notes')

describeUpstream('splitting the upstream note bodies (shared/fixtures/squad-notes)', () => {
  it('after-append.txt: two objects separated by a blank line', () => {
    const s = splitBody(readFileSync(join(upstream, 'after-append.txt'), 'utf8'))
    expect(s.shape).toBe('appended')
    expect(s.values.map((v) => (v.value as { type: string }).type)).toEqual(['decision', 'progress'])
  })

  it('after-cat_sort_uniq-merge.txt: four JSON lines, none lost', () => {
    const s = splitBody(readFileSync(join(upstream, 'after-cat_sort_uniq-merge.txt'), 'utf8'))
    expect(s.shape).toBe('jsonl')
    expect(s.values.map((v) => (v.value as { content?: string }).content ?? null)).toEqual([null, 'step 2', 'local', 'remote'])
    expect(s.unparseable).toEqual([])
  })
})
