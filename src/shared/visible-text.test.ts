import { describe, expect, it } from 'vitest'
import { cutAt, hasHidden, visible, visibleParts, visibleTitle } from './visible-text'

describe('visible: hostile text shown escaped', () => {
  it('escapes terminal controls, bidi, zero-width and tag characters; leaves ordinary text alone', () => {
    expect(visible('rm -rf ~/x\r\x1b[2K\x1b[1A echo harmless')).toBe('rm -rf ~/x\\r\\x1b[2K\\x1b[1A echo harmless')
    expect(visible('\x1b]0;pwned\x07')).toBe('\\x1b]0;pwned\\x07')
    expect(visible('\x9b31m')).toBe('\\x9b31m')
    expect(visible('echo safe #\u202e ; rm -rf ~')).toBe('echo safe #\\u202e ; rm -rf ~')
    expect(visible('a\u2066b\u2069\u200e\u200f\u061c')).toBe('a\\u2066b\\u2069\\u200e\\u200f\\u061c')
    expect(visible('rm\u200b -rf\ufeff\u00ad\u2060')).toBe('rm\\u200b -rf\\ufeff\\xad\\u2060')
    expect(visible('x\u{e0041}\u{e007f}')).toBe('x\\u{e0041}\\u{e007f}')
    expect(visible('lone \ud800 surrogate')).toBe('lone \\ud800 surrogate')
    for (const ok of ['npm test -- --run', 'C:\\Users\\op', 'é 日本語 ü ß', '👩‍💻 ❤️ 🇫🇷', 'καλημέρα']) {
      expect(visible(ok)).toBe(ok)
      expect(hasHidden(ok)).toBe(false)
    }
  })

  it('line breaks: escaped on one line, kept in multiline blocks (a carriage return never)', () => {
    expect(visible('a\nb\tc')).toBe('a\\nb\\tc')
    expect(visible('a\nb\r\nc', { multiline: true })).toBe('a\nb\\r\nc')
    expect(hasHidden('a\nb', { multiline: true })).toBe(false)
    expect(hasHidden('a\nb')).toBe(true)
  })

  it('parts for the UI: hidden characters as their own marked pieces', () => {
    expect(visibleParts('ok\u202eko')).toEqual([
      { text: 'ok', hidden: false },
      { text: '\\u202e', hidden: true },
      { text: 'ko', hidden: false }
    ])
    expect(visibleParts('plain')).toEqual([{ text: 'plain', hidden: false }])
  })

  it('cuts a 10 MB line: the shown part, then one note saying how much is not shown', () => {
    const huge = '\u202e' + 'x'.repeat(10 * 1024 * 1024)
    const parts = visibleParts(huge, { max: 2000 })
    expect(parts).toHaveLength(3)
    expect(parts[0]).toEqual({ text: '\\u202e', hidden: true })
    expect(parts[1]!.text).toHaveLength(1999)
    expect(parts[2]).toEqual({ text: `… ${(huge.length - 2000).toLocaleString('en-US')} more characters`, hidden: false, cut: true })
    expect(visibleParts('short', { max: 10 })).toEqual([{ text: 'short', hidden: false }])
    // a surrogate pair is never split (its half would show as a lone surrogate)
    expect(cutAt('ab😀c', 3)).toBe('ab')
    expect(cutAt('ab😀c', 4)).toBe('ab😀')
  })

  it('tabs kept when asked, as one plain run; every other hidden character still marked', () => {
    expect(visibleParts('a\tb\u200bc', { keepTabs: true })).toEqual([
      { text: 'a\tb', hidden: false },
      { text: '\\u200b', hidden: true },
      { text: 'c', hidden: false }
    ])
  })

  it('titles (tooltips, labels): escapes as text, cut at 300 characters', () => {
    expect(visibleTitle('evil\u202e')).toBe('evil\\u202e')
    const t = visibleTitle('y'.repeat(1000))
    expect(t).toBe(`${'y'.repeat(300)} … 700 more characters`)
  })
})
