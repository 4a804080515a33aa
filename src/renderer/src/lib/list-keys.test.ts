import { describe, expect, it } from 'vitest'
import { CHORD_MS, chordTracker, listKeyTarget, listStep } from './list-keys'

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

  it('the shell chord takes g and the key right after it, not a key after the window', () => {
    let t = 1_000_000
    const inChord = chordTracker(() => t)
    expect(inChord('j')).toBe(false)
    expect(inChord('g')).toBe(true)
    t += CHORD_MS - 1
    expect(inChord('o')).toBe(true)
    expect(inChord('j')).toBe(false)
    inChord('g')
    t += CHORD_MS
    expect(inChord('j')).toBe(false)
  })
})
