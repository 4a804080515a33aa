import { describe, it, expect } from 'vitest'
import {
  ARTIFACT_ID_RE,
  CREATED_AT_RE,
  EVENT_ID_RE,
  formatCreatedAt,
  HLC_RE,
  newId,
  newReplicaId,
  nextHlc,
  parseHlc,
  pyFloat,
  pyFloatRepr,
  pyJsonDumps,
  REPLICA_ID_RE,
  renderHlc
} from './ids'

describe('ids and timestamps', () => {
  it('mints event and artifact ids with a UTC stamp and 12 lowercase hex', () => {
    const at = new Date(Date.UTC(2026, 2, 5, 7, 8, 9))
    const evt = newId('evt', at)
    expect(evt).toMatch(EVENT_ID_RE)
    expect(evt.startsWith('evt_20260305T070809_')).toBe(true)
    expect(newId('art', at)).toMatch(ARTIFACT_ID_RE)
    expect(newId('evt')).not.toBe(newId('evt'))
  })

  it('formats created_at at second precision with Z', () => {
    expect(formatCreatedAt(new Date(Date.UTC(2026, 11, 31, 23, 59, 58, 999)))).toBe('2026-12-31T23:59:58Z')
    expect(formatCreatedAt()).toMatch(CREATED_AT_RE)
  })

  it('mints 32-hex replica ids', () => {
    const id = newReplicaId()
    expect(id).toMatch(/^rep_[0-9a-f]{32}$/)
    expect(id).toMatch(REPLICA_ID_RE)
    expect('rep_0123456789ab').toMatch(REPLICA_ID_RE)
    expect('rep_XYZ').not.toMatch(REPLICA_ID_RE)
  })
})

describe('hybrid logical clock', () => {
  const rep = 'rep_' + 'a'.repeat(32)
  it('renders fixed-width stamps that parse back', () => {
    const hlc = renderHlc(1783038849123, 0x2a, rep)
    expect(hlc).toBe(`1783038849123-00002a-${rep}`)
    expect(hlc).toMatch(HLC_RE)
    expect(parseHlc(hlc)).toEqual({ ms: 1783038849123, counter: 42, replicaId: rep })
    expect(parseHlc('nope')).toBeNull()
  })

  it('uses physical time when it advanced, else bumps the counter (same ms or clock regression)', () => {
    const first = nextHlc(null, 1_700_000_000_000, rep)
    expect(first).toBe(`1700000000000-000000-${rep}`)
    const sameMs = nextHlc(first, 1_700_000_000_000, rep)
    expect(sameMs).toBe(`1700000000000-000001-${rep}`)
    const regressed = nextHlc(sameMs, 1_600_000_000_000, rep)
    expect(regressed).toBe(`1700000000000-000002-${rep}`)
    expect(sameMs > first && regressed > sameMs).toBe(true)
    // strictly greater even when the last stamp came from a replica that sorts after ours
    const foreign = `1700000000000-000005-rep_${'f'.repeat(32)}`
    expect(nextHlc(foreign, 1_700_000_000_000, rep) > foreign).toBe(true)
    // counter exhaustion steps the millisecond
    expect(nextHlc(`1700000000000-ffffff-${rep}`, 1, rep)).toBe(`1700000000001-000000-${rep}`)
  })
})

describe('pyJsonDumps (Python json.dumps(ensure_ascii=False, sort_keys=True))', () => {
  it('sorts keys recursively and uses ", " / ": " separators', () => {
    expect(pyJsonDumps({ b: 1, a: { d: [1, 2, { z: null, y: true }], c: false } })).toBe(
      '{"a": {"c": false, "d": [1, 2, {"y": true, "z": null}]}, "b": 1}'
    )
    expect(pyJsonDumps({})).toBe('{}')
    expect(pyJsonDumps({ a: [] })).toBe('{"a": []}')
  })

  it('keeps non-ASCII as-is and escapes like Python', () => {
    expect(pyJsonDumps({ title: '竞品深度调研 ✅ 🟡', ack_of: 'evt_x' })).toBe('{"ack_of": "evt_x", "title": "竞品深度调研 ✅ 🟡"}')
    expect(pyJsonDumps({ s: 'q"b\\n\n\r\t\b\f\x01\x1f\x7f\u2028é' })).toBe('{"s": "q\\"b\\\\n\\n\\r\\t\\b\\f\\u0001\\u001f\x7f\u2028é"}')
  })

  it('sorts keys by code point like Python, not by UTF-16 unit', () => {
    // U+FF01 < U+1F600 by code point, but its UTF-16 unit (0xFF01) sorts after 0xD83D
    expect(pyJsonDumps({ '😀': 1, '！': 2, a: 3, B: 4 })).toBe('{"B": 4, "a": 3, "！": 2, "😀": 1}')
  })

  it('writes numbers like Python', () => {
    expect(pyJsonDumps([1, -3, 0, -0, 10 ** 16, 2 ** 53 + 2])).toBe('[1, -3, 0, 0, 10000000000000000, 9007199254740994]')
    expect(pyJsonDumps([0.5, 1.25, -2.5, 1e-5, 0.0001, 123456789.125, 1 / 3])).toBe(
      '[0.5, 1.25, -2.5, 1e-05, 0.0001, 123456789.125, 0.3333333333333333]'
    )
    // integral JS numbers are Python ints; pyFloat keeps Python float repr for large ones
    expect(pyJsonDumps([1.5e16, pyFloat(1.5e16), pyFloat(1e22)])).toBe('[15000000000000000, 1.5e+16, 1e+22]')
    expect(pyJsonDumps({ f: pyFloat(1), g: pyFloat(100), h: pyFloat(1e16), n: 12n })).toBe('{"f": 1.0, "g": 100.0, "h": 1e+16, "n": 12}')
    expect(pyFloatRepr(-0)).toBe('-0.0')
    expect(pyFloatRepr(123.0)).toBe('123.0')
    expect(pyFloatRepr(9999999999999998)).toBe('9999999999999998.0')
    expect(pyFloatRepr(5e-324)).toBe('5e-324')
  })

  it('rejects what JSON cannot carry', () => {
    expect(() => pyJsonDumps({ x: NaN })).toThrow(/not JSON compliant/)
    expect(() => pyJsonDumps({ x: Infinity })).toThrow(/not JSON compliant/)
    expect(() => pyJsonDumps({ x: new Date() })).toThrow(/Date is not JSON serializable/)
    expect(() => pyJsonDumps({ x: '\uD800' })).toThrow(/lone surrogate/)
    expect(pyJsonDumps({ x: undefined, y: [undefined] })).toBe('{"y": [null]}')
  })
})
