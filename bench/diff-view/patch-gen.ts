/**
 * A generated multi-file unified diff of about 5,000 lines for the diff-view bench: two large files,
 * several small ones, CRLF lines, a file without a final newline and a binary file.
 */

/** One file's section of a `git diff` with a single modified hunk of `n` changed lines. */
function modifiedFile(path: string, n: number, eol: string): string {
  const head = `diff --git a/${path} b/${path}\nindex 1111111..2222222 100644\n--- a/${path}\n+++ b/${path}\n`
  const lines: string[] = []
  let oldCount = 0
  let newCount = 0
  for (let i = 0; i < n; i++) {
    // every 4th line is context, then a removed/added pair: a realistic mix for a large edit
    if (i % 4 === 0) {
      lines.push(` export const value${i} = compute(${i}, 'context line ${i}')${eol}`)
      oldCount++
      newCount++
    } else if (i % 4 === 1) {
      lines.push(`-function old${i}(a: number): number { return a * ${i} }${eol}`)
      oldCount++
    } else {
      lines.push(`+function new${i}(a: number, b = ${i}): number { return a * b + ${i % 7} }${eol}`)
      newCount++
    }
  }
  return head + `@@ -1,${oldCount} +1,${newCount} @@\n` + lines.join('\n') + '\n'
}

/** The bench patch: ~5,000 lines over 7 files. */
export function generatePatch(): string {
  const parts = [
    modifiedFile('src/big/engine.ts', 2400, ''),
    modifiedFile('src/big/parser.ts', 1500, ''),
    modifiedFile('src/win/config.cs', 400, '\r'),
    modifiedFile('src/small/a.ts', 300, ''),
    modifiedFile('src/small/b.ts', 300, ''),
    // no final newline on the new side
    'diff --git a/VERSION b/VERSION\nindex 3333333..4444444 100644\n--- a/VERSION\n+++ b/VERSION\n@@ -1 +1 @@\n-1.0.0\n+1.1.0\n\\ No newline at end of file\n',
    'diff --git a/assets/logo.png b/assets/logo.png\nindex 5555555..6666666 100644\nBinary files a/assets/logo.png and b/assets/logo.png differ\n'
  ]
  return parts.join('')
}
