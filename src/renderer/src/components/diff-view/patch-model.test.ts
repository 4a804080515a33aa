import { describe, expect, it } from 'vitest'
import { firstScreenFiles, LARGE_FILE_LINES, parsePatch } from './patch-model'

const crlf = 'diff --git a/w.cs b/w.cs\nindex 1..2 100644\n--- a/w.cs\n+++ b/w.cs\n@@ -1,2 +1,2 @@\n keep\r\n-old\r\n+new\r\n'
const nonl = 'diff --git a/V b/V\nindex 3..4 100644\n--- a/V\n+++ b/V\n@@ -1 +1 @@\n-1.0.0\n+1.1.0\n\\ No newline at end of file\n'
const bin = 'diff --git a/l.png b/l.png\nindex 5..6 100644\nBinary files a/l.png and b/l.png differ\n'

describe('parsePatch', () => {
  it('keeps carriage returns in the content and counts CRLF lines', () => {
    const [f] = parsePatch(crlf)
    expect(f!.crlfLines).toBe(3)
    expect(f!.data.hunks[0]!.changes.map((c) => c.content)).toEqual(['keep\r', 'old\r', 'new\r'])
  })
  it('flags the missing final newline on the new side only', () => {
    const [f] = parsePatch(nonl)
    expect(f!.noFinalNewline).toEqual({ old: false, new: true })
  })
  it('describes binary sections and keeps file order and ids', () => {
    const files = parsePatch(crlf + bin + nonl)
    expect(files.map((f) => [f.id, f.path, f.binary])).toEqual([
      ['file-0', 'w.cs', false],
      ['file-1', 'l.png', true],
      ['file-2', 'V', false]
    ])
  })
  it('marks files over the large threshold and renders only the first screen of files at once', () => {
    const big =
      `diff --git a/b.ts b/b.ts\n--- a/b.ts\n+++ b/b.ts\n@@ -0,0 +1,${LARGE_FILE_LINES + 1} @@\n` +
      Array.from({ length: LARGE_FILE_LINES + 1 }, (_, i) => `+l${i}\n`).join('')
    const mid =
      `diff --git a/m.ts b/m.ts\n--- a/m.ts\n+++ b/m.ts\n@@ -0,0 +1,200 @@\n` + Array.from({ length: 200 }, (_, i) => `+m${i}\n`).join('')
    const files = parsePatch(big + mid + nonl)
    expect(files[0]!.large).toBe(true)
    expect(files[1]!.large).toBe(false)
    expect(firstScreenFiles(files)).toBe(2)
  })
  it('returns no files for text that is not a patch', () => {
    expect(parsePatch('hello\n')).toEqual([])
  })
})
