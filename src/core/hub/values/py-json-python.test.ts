/**
 * `shared/py-json` against the real thing: MemPalace reads and writes metadata with Python's
 * `json.loads` / `json.dumps(..., ensure_ascii=False, sort_keys=True)` (logstream.py
 * `_sanitize_metadata`, `_event_dict`; cli/cmd_coord.py prints with `indent=2`), so every case is
 * run through python3 and must come out byte for byte the same, errors included.
 */
import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { plainIsExact, pyDumps, pyToPlain } from '../../../shared/py-json'
import { PyJsonDecodeError, pyLoads } from '../../../shared/py-json-parse'

const PY = `
import json, sys
out = []
for text in json.load(sys.stdin):
    try:
        v = json.loads(text)
    except ValueError as e:
        out.append({"error": str(e)})
        continue
    r = {"sorted": json.dumps(v, ensure_ascii=False, sort_keys=True), "indent": json.dumps(v, indent=2, ensure_ascii=False)}
    try:
        r["ascii"] = json.dumps(v)
    except ValueError as e:
        r["ascii"] = "!" + str(e)
    out.append(r)
json.dump(out, sys.stdout)
`

function python(cases: string[]): { error?: string; sorted?: string; indent?: string; ascii?: string }[] {
  return JSON.parse(execFileSync('python3', ['-c', PY], { input: JSON.stringify(cases), encoding: 'utf8' }))
}

function ours(text: string): { error?: string; sorted?: string; indent?: string; ascii?: string } {
  let v
  try {
    v = pyLoads(text)
  } catch (err) {
    if (err instanceof PyJsonDecodeError) return { error: err.message }
    throw err
  }
  return {
    sorted: pyDumps(v, { sortKeys: true, loneSurrogates: 'raw' }),
    indent: pyDumps(v, { indent: 2, loneSurrogates: 'raw' }),
    ascii: pyDumps(v, { ensureAscii: true })
  }
}

const CASES = [
  '{}',
  '[]',
  ' {"b": 1, "a": [1, 2.5, -0, -0.0, 1.0, 1E5, 1e-7, 0.1, 123456789012345678901234567890]} ',
  '{"n": 12345678901234567890, "f": 1.0, "big": 9007199254740993, "neg": -9007199254740993, "e": 1.5e300, "tiny": 5e-324}',
  '{"10": "a", "9": "b", "a": {"2": [], "1": {}}, "__proto__": 1, "": null}',
  '{"a": 1, "a": 2, "b": 3}',
  '{"x": NaN, "y": Infinity, "z": -Infinity}',
  '{"inf": 1e400, "ninf": -1e400}',
  '{"s": "\\u00e9\\ud83d\\ude00 \\u2028\\u007f\\/\\b\\f\\n\\r\\t\\"\\\\ \\u0001", "lone": "\\ud800x"}',
  '"中文 emoji 😀"',
  '[true, false, null, "x", 0, -1, 1.25e+2, 3.0e0]',
  '  [ 1 ,\n 2 ]  ',
  '{"a" : 1 , "b":2}',
  // errors
  '',
  ' ',
  'x',
  '{"a":1',
  '{"a" 1}',
  '{a:1}',
  '[1,]',
  '{"a":1,}',
  '"abc',
  '"a\u0001"',
  '"\\x"',
  '"\\u12"',
  '"\\u12zz"',
  '"\\uXXXX"',
  '"\\u0x12"',
  '1 2',
  'nul',
  '{"a":1}}',
  '-',
  '01',
  '[1 2]',
  '{"a":1 "b":2}',
  ' \n {"a": [1, 2',
  '1.',
  '1e',
  '.5',
  '[',
  '{',
  '{"a":"b\\',
  '\ufeff{}',
  '{"é": "😀", "k" x}',
  '😀😀 x',
  '[1,\n\n  }',
  '{"a":\n}',
  'tru',
  'nan',
  '-Inf',
  '+1',
  '[-]',
  '1' + '0'.repeat(4300),
  '1' + '0'.repeat(4299)
]

describe('py-json is Python json, byte for byte', () => {
  it('loads + dumps (sorted, indent=2, ensure_ascii) and every error message match python3', () => {
    const expected = python(CASES)
    CASES.forEach((text, i) => expect(ours(text), JSON.stringify(text).slice(0, 80)).toEqual(expected[i]))
  })

  it('float repr matches Python on random doubles and on the exponent edges', () => {
    const nums: string[] = [
      '1e15',
      '1e16',
      '1e-4',
      '1e-5',
      '0.0001',
      '0.00001',
      '123456789012345.6',
      '1234567890123456.7',
      '9.999999999999999e15'
    ]
    let seed = 42
    const rnd = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
    for (let i = 0; i < 400; i++) {
      const mant = (rnd() * 10).toPrecision(1 + Math.floor(rnd() * 17))
      nums.push(`${rnd() < 0.5 ? '-' : ''}${mant}e${Math.floor(rnd() * 80) - 40}`)
    }
    const texts = nums.map((n) => `[${n}]`)
    const expected = python(texts)
    texts.forEach((t, i) => expect(ours(t).sorted, t).toBe(expected[i]!.sorted))
  })

  it('plain values for the contract: lossy exactly where JSON.parse would be, and said so', () => {
    const exact = pyLoads('{"a": 1, "b": [0.5, "x", null, true], "c": {"d": -3}}')
    expect(plainIsExact(exact)).toBe(true)
    expect(pyToPlain(exact)).toEqual(JSON.parse('{"a": 1, "b": [0.5, "x", null, true], "c": {"d": -3}}'))
    for (const lossy of ['{"n": 12345678901234567890}', '{"f": 1.0}', '{"10": 1, "9": 2}', '{"x": NaN}', '[-0.0]']) {
      expect(plainIsExact(pyLoads(lossy)), lossy).toBe(false)
    }
    expect(plainIsExact(pyLoads('{"9": 1, "10": 2, "a": 3}'))).toBe(true)
    const proto = pyToPlain(pyLoads('{"__proto__": {"x": 1}}')) as Record<string, unknown>
    expect(Object.keys(proto)).toEqual(['__proto__'])
    expect(JSON.stringify(proto)).toBe('{"__proto__":{"x":1}}')
  })
})
