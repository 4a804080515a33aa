import { describe, expect, it } from 'vitest'
import { isInside } from './path-inside'

describe('isInside', () => {
  it('is the folder itself or under it, never a sibling sharing a prefix', () => {
    expect(isInside('/a/b', '/a/b', '/')).toBe(true)
    expect(isInside('/a/b/c.md', '/a/b', '/')).toBe(true)
    expect(isInside('/a/b/c.md', '/a/b/', '/')).toBe(true)
    expect(isInside('/a/bc', '/a/b', '/')).toBe(false)
    expect(isInside('/a', '/a/b', '/')).toBe(false)
    expect(isInside('/x/anything', '/', '/')).toBe(true)
    expect(isInside('C:\\p\\q', 'C:\\p', '\\')).toBe(true)
    expect(isInside('C:\\pq', 'C:\\p', '\\')).toBe(false)
  })
})
