import { chmodSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { makeRepo } from '../../../test/helpers/git-repo'
import { git } from '../git/run'
import { parsePatch, unquotePath } from './diff-files'
import { findShaClaims, compareClaims } from './quoted-sha'

describe('reading the files of a patch', () => {
  it('reads what git diff writes: modify, add, delete, rename, mode change, binary, quoted paths', async () => {
    const repo = await makeRepo()
    await repo.commit('base', {
      'a.txt': 'one\ntwo\n',
      'gone.txt': 'bye\n',
      'old name.txt': 'same\nsame\nsame\n',
      'run.sh': 'echo\n',
      'img.bin': 'x'
    })
    await repo.git(['rm', '-q', 'gone.txt'])
    await repo.git(['mv', 'old name.txt', 'new name.txt'])
    await repo.commit('changes', { 'a.txt': 'one\n-- two\n', 'added/deep.txt': 'new\n', 'img.bin': '\x00\x01binary' })
    chmodSync(join(repo.dir, 'run.sh'), 0o755)
    await repo.commit('mode', { 'ünï "q".txt': 'q\n' })
    const text = (await git(repo.dir, ['diff', '--binary', '-M', 'HEAD~2', 'HEAD'])).stdout
    const { files, problems } = parsePatch(text)
    expect(problems).toEqual([])
    const byPath = Object.fromEntries(files.map((f) => [f.new_path ?? f.old_path, f]))
    expect(byPath['a.txt']).toMatchObject({ status: 'modified', additions: 1, deletions: 1, binary: false })
    expect(byPath['gone.txt']).toMatchObject({ status: 'deleted', old_path: 'gone.txt', new_path: null, deletions: 1 })
    expect(byPath['new name.txt']).toMatchObject({ status: 'renamed', old_path: 'old name.txt' })
    expect(byPath['added/deep.txt']).toMatchObject({ status: 'added', old_path: null, additions: 1 })
    expect(byPath['img.bin']).toMatchObject({ binary: true })
    expect(byPath['run.sh']).toMatchObject({ status: 'mode' })
    expect(byPath['ünï "q".txt']).toMatchObject({ status: 'added' })
  })

  it('counts hunks by their headers: a removed "-- x" line or "+++ x" line is not a header', () => {
    const text = ['--- a/f', '+++ b/f', '@@ -1,3 +1,3 @@', ' a', '--- not a header', '+++ not one either', ' c', ''].join('\n')
    expect(parsePatch(text).files).toEqual([
      { old_path: 'f', new_path: 'f', status: 'modified', binary: false, additions: 1, deletions: 1 }
    ])
  })

  it('reads plain unified diffs, CRLF patches, and says when a hunk is cut short', () => {
    const plain = '--- src/x.c\t2024-01-01 10:00:00\n+++ src/x.c\t2024-01-02 10:00:00\n@@ -1 +1 @@\n-a\n+b\n'
    expect(parsePatch(plain).files[0]).toMatchObject({ old_path: 'x.c', new_path: 'x.c', additions: 1, deletions: 1 })
    const crlf = 'diff --git a/w.txt b/w.txt\r\n--- a/w.txt\r\n+++ b/w.txt\r\n@@ -1,2 +1,2 @@\r\n a\r\n-b\r\n+c\r\n'
    expect(parsePatch(crlf).files[0]).toMatchObject({ new_path: 'w.txt', additions: 1, deletions: 1 })
    expect(parsePatch('--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-b\n').problems).toEqual(['the last hunk is shorter than its @@ header says'])
  })

  it('keeps dangerous paths as written so verification can refuse them', () => {
    const text = 'diff --git a/../../etc/passwd b/../../etc/passwd\n--- a/../../etc/passwd\n+++ b/../../etc/passwd\n@@ -1 +1 @@\n-x\n+y\n'
    expect(parsePatch(text).files[0]!.new_path).toBe('../../etc/passwd')
    expect(parsePatch('--- /dev/null\n+++ /abs/file\n@@ -0,0 +1 @@\n+x\n').files[0]!.new_path).toBe('abs/file')
  })

  it("unquotes git's C-quoted paths (octal UTF-8 bytes, escapes)", () => {
    expect(unquotePath('"a/t\\303\\251st\\t\\"q\\".txt"')).toBe('a/tést\t"q".txt')
    expect(unquotePath('a/plain.txt')).toBe('a/plain.txt')
  })
})

describe('shas the sender quoted', () => {
  const sha = 'a'.repeat(64)
  const other = 'b'.repeat(64)
  it('finds digest-named metadata values (nested) and body words on lines naming a digest', () => {
    const claims = findShaClaims(`fix ready\nsha256: ${sha}\ncommit ${'c'.repeat(64)} is the base`, {
      sha256: sha.toUpperCase(),
      artifact: { patch_sha256: `sha256:${other}` },
      base: 'd'.repeat(64)
    })
    expect(claims).toEqual([
      { where: 'metadata', at: 'sha256', sha256: sha },
      { where: 'metadata', at: 'artifact.patch_sha256', sha256: other },
      { where: 'body', at: 'line 2', sha256: sha }
    ])
  })

  it('compares with the computed sha; a claim about another attached artifact is left out', () => {
    const claims = findShaClaims(`sha256 ${sha}\nsha256 ${other}\nchecksum ${'e'.repeat(64)}`, {})
    expect(compareClaims(claims, sha, [other]).map((c) => [c.sha256[0], c.ok])).toEqual([
      ['a', true],
      ['e', false]
    ])
  })
})
