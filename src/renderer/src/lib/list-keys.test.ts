import { describe, expect, it } from 'vitest'
import { listKeyTarget, listStep } from './list-keys'

describe('list keys', () => {
  it('j/k and arrows step, Home/End jump, the ends hold, other keys are not list keys', () => {
    expect([listStep('j'), listStep('ArrowDown'), listStep('k'), listStep('ArrowUp'), listStep('x')]).toEqual([1, 1, -1, -1, 0])
    expect(listKeyTarget('j', 1, 3)).toBe(2)
    expect(listKeyTarget('j', 2, 3)).toBe(2)
    expect(listKeyTarget('k', 0, 3)).toBe(0)
    expect(listKeyTarget('j', -1, 3)).toBe(0)
    expect(listKeyTarget('End', 0, 3)).toBe(2)
    expect(listKeyTarget('Home', 2, 3)).toBe(0)
    expect(listKeyTarget('Enter', 1, 3)).toBeNull()
    expect(listKeyTarget('j', 0, 0)).toBeNull()
  })
})
