import { describe, expect, it } from 'vitest'
import { cutLongLines, MAX_MARKDOWN_LINE } from './markdown'

describe('cutLongLines', () => {
  it('cuts only the lines past the limit, keeping every line (their numbers stay right)', () => {
    const long = 'z'.repeat(MAX_MARKDOWN_LINE + 25)
    const text = `# Title\n${long}\nlast`
    const out = cutLongLines(text).split('\n')
    expect(out).toHaveLength(3)
    expect(out[0]).toBe('# Title')
    expect(out[1]).toBe(`${'z'.repeat(MAX_MARKDOWN_LINE)} … [25 more characters on this line, not shown]`)
    expect(out[2]).toBe('last')
    const short = 'a\nb'
    expect(cutLongLines(short)).toBe(short)
  })
})
