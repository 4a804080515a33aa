/** The next automatic directive number skips taken numbers and a stray far jump instead of stopping (issue 36, point 6). */
import { describe, expect, it } from 'vitest'
import { directiveIdOf, nextDirectiveNumber, sequenceTop } from './directive-numbering'

describe('directive numbering', () => {
  it('continues the sequence, past a far jump and taken numbers', () => {
    expect(nextDirectiveNumber([])).toBe(1)
    expect(nextDirectiveNumber([1, 2, 48])).toBe(49)
    expect(nextDirectiveNumber([1, 2, 48, 9999])).toBe(49)
    expect(sequenceTop([25, 29, 109, 229, 9999])).toBe(229)
    expect(nextDirectiveNumber([48, 9999], 1, (n) => n === 49)).toBe(50)
    expect(nextDirectiveNumber([48], 60)).toBe(60)
  })

  it('a lone high number or a full top falls back to the first free number; all taken is null', () => {
    expect(nextDirectiveNumber([9999])).toBe(1)
    expect(nextDirectiveNumber([9998, 9999], 9998)).toBe(1)
    const all = Array.from({ length: 9999 }, (_, i) => i + 1)
    expect(nextDirectiveNumber(all)).toBeNull()
    expect(nextDirectiveNumber(all.filter((n) => n !== 17))).toBe(17)
    expect(directiveIdOf(7)).toBe('S007')
    expect(directiveIdOf(1234)).toBe('S1234')
  })
})
