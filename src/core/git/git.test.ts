import { createHash } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { makeRepo } from '../../../test/helpers/git-repo'
import { tmpDir } from '../../../test/helpers/tmp'
import { catFileBatch, catFileCheck } from './batch'
import { GitError } from './errors'
import { commitExists, defaultBranch, latestTag, listRefs, reachableFrom, remoteFetchSpecs, repoInfo } from './repo'
import { git, gitBytes, gitText } from './run'

describe('running git', () => {
  it('passes arguments as an array: shell metacharacters reach git verbatim', async () => {
    const repo = await makeRepo()
    const message = 'feat: $(touch pwned) `id`; rm -rf / && echo "x" | cat'
    await repo.commit(message)
    expect(await gitText(repo.dir, ['log', '-1', '--format=%s'])).toBe(message)
  })

  it('round-trips bytes exactly (CRLF, NUL, invalid UTF-8)', async () => {
    const repo = await makeRepo()
    const bytes = Buffer.from([0x61, 0x0d, 0x0a, 0x00, 0xff, 0xfe, 0x0a])
    const oid = (await git(repo.dir, ['hash-object', '-w', '--stdin'], { input: bytes })).stdout.trim()
    expect((await gitBytes(repo.dir, ['cat-file', 'blob', oid])).stdout.equals(bytes)).toBe(true)
  })

  it('says clearly when the folder is missing or not a repository', async () => {
    const none = join(tmpDir(), 'nope')
    await expect(git(none, ['status'])).rejects.toMatchObject({
      failure: 'no-folder',
      message: `${none} does not exist or is not a folder`
    })
    const plain = tmpDir()
    await expect(git(plain, ['status'])).rejects.toMatchObject({
      failure: 'not-a-repo',
      code: 'not_found',
      message: `${plain} is not a git repository`
    })
  })

  it('says clearly when git itself is missing', async () => {
    const err = await git(tmpDir(), ['status'], { env: { PATH: tmpDir() } }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(GitError)
    expect(err).toMatchObject({
      failure: 'missing',
      message: 'git was not found on the PATH: install git to read repositories, tags and notes'
    })
  })

  it("reports git's own first error line, and accepts listed exit codes as answers", async () => {
    const repo = await makeRepo()
    await expect(git(repo.dir, ['rev-parse', '--verify', 'no-such-branch'])).rejects.toMatchObject({
      failure: 'failed',
      exitCode: 128,
      message: `git rev-parse failed in ${repo.dir}: Needed a single revision`
    })
    const r = await git(repo.dir, ['config', '--get', 'no.such'], { okCodes: [0, 1] })
    expect(r.code).toBe(1)
  })

  it('kills git after the timeout', async () => {
    const repo = await makeRepo()
    // without the timeout the alias would finish after 3 s and the call would succeed
    await expect(git(repo.dir, ['hang'], { config: ['alias.hang=!sleep 3'], timeoutMs: 200 })).rejects.toMatchObject({ failure: 'timeout' })
  })

  it('ignores inherited variables that point git at another repository or notes ref', async () => {
    const a = await makeRepo()
    const b = await makeRepo()
    const sha = await b.commit('in b')
    await b.note('squad/x', sha, 'hello')
    process.env.GIT_DIR = join(a.dir, '.git')
    process.env.GIT_NOTES_REF = 'refs/notes/elsewhere'
    try {
      expect(await gitText(b.dir, ['rev-parse', 'HEAD'])).toBe(sha)
      expect(await gitText(b.dir, ['notes', '--ref=squad/x', 'show', sha])).toBe('hello')
    } finally {
      delete process.env.GIT_DIR
      delete process.env.GIT_NOTES_REF
    }
  })
})

describe('batched object reads', () => {
  it('reads many blobs in one process, in order, null where missing, large and binary ones intact', async () => {
    const repo = await makeRepo()
    const big = 'x'.repeat(300_000) + '\n'
    const binary = Buffer.from([0, 10, 10, 255, 13, 10])
    const oids: string[] = []
    for (const content of ['one\n', big, binary, ''])
      oids.push((await git(repo.dir, ['hash-object', '-w', '--stdin'], { input: content })).stdout.trim())
    const got = await catFileBatch(repo.dir, [oids[0]!, 'f'.repeat(40), oids[1]!, oids[2]!, oids[3]!])
    expect(got.map((o) => o?.type ?? null)).toEqual(['blob', null, 'blob', 'blob', 'blob'])
    expect(got[0]!.content.toString()).toBe('one\n')
    expect(got[2]!.content.toString()).toBe(big)
    expect(got[3]!.content.equals(binary)).toBe(true)
    expect(got[4]!.size).toBe(0)
    const checks = await catFileCheck(repo.dir, [oids[1]!, 'HEAD'])
    expect(checks).toEqual([{ oid: oids[1], type: 'blob', size: big.length, content: Buffer.alloc(0) }, null])
  })

  it('reads 10,000 objects in one batch, in order', async () => {
    const repo = await makeRepo()
    const input = Array.from({ length: 10_000 }, (_, i) => `{"n":${i}}`)
    // one fast-import writes them all into a pack, as a real repository holds them
    const stream = input.map((t) => `blob\ndata ${Buffer.byteLength(t)}\n${t}\n`).join('')
    await git(repo.dir, ['fast-import', '--quiet'], { input: stream })
    const oids = input.map((t) =>
      createHash('sha1')
        .update(`blob ${Buffer.byteLength(t)}\0${t}`)
        .digest('hex')
    )
    const got = await catFileBatch(repo.dir, oids)
    expect(got.map((o) => o!.content.toString())).toEqual(input)
  })

  it('refuses names that would inject extra lookups, and needs a repository', async () => {
    const repo = await makeRepo()
    await expect(catFileBatch(repo.dir, ['HEAD\nHEAD'])).rejects.toThrow(/invalid object name/)
    await expect(catFileBatch(tmpDir(), ['HEAD'])).rejects.toMatchObject({ failure: 'not-a-repo' })
    expect(await catFileBatch(repo.dir, [])).toEqual([])
  })
})

describe('repository questions', () => {
  it('locates the repository from a subfolder', async () => {
    const repo = await makeRepo()
    mkdirSync(join(repo.dir, 'sub'))
    const info = await repoInfo(join(repo.dir, 'sub'))
    expect(info).toEqual({ root: repo.dir, gitDir: join(repo.dir, '.git'), commonDir: join(repo.dir, '.git') })
  })

  it('commits, tags, refs, reachability', async () => {
    const repo = await makeRepo()
    expect(await defaultBranch(repo.dir)).toBeNull()
    const first = await repo.commit('one')
    expect(await latestTag(repo.dir)).toBeNull()
    await repo.git(['tag', '-a', 'v1.0.0', '-m', 'v1'])
    const second = await repo.commit('two')
    expect(await latestTag(repo.dir)).toBe('v1.0.0')
    expect(await commitExists(repo.dir, first)).toBe(true)
    expect(await commitExists(repo.dir, 'deadbeef12')).toBe(false)
    await expect(commitExists(tmpDir(), first)).rejects.toMatchObject({ failure: 'not-a-repo' })
    await repo.git(['checkout', '-q', '-b', 'feature'])
    const third = await repo.commit('three')
    expect(await defaultBranch(repo.dir)).toBe('refs/heads/main')
    expect(await reachableFrom(repo.dir, 'refs/heads/main')).toEqual(new Set([first, second]))
    expect((await listRefs(repo.dir, ['refs/heads'])).map((r) => r.ref)).toEqual(['refs/heads/feature', 'refs/heads/main'])
    expect((await listRefs(repo.dir, ['refs/heads/feature']))[0]!.oid).toBe(third)
  })

  it('default branch: origin/HEAD first, then main/master, then the branch HEAD is on', async () => {
    const upstream = await makeRepo()
    await upstream.git(['checkout', '-q', '-b', 'trunk'])
    await upstream.commit('base')
    const clone = tmpDir()
    await gitText(tmpDir(), ['clone', '-q', upstream.dir, clone])
    expect(await defaultBranch(clone)).toBe('refs/heads/trunk')
    await gitText(clone, ['checkout', '-q', '-b', 'work'])
    await gitText(clone, ['branch', '-q', '-D', 'trunk'])
    expect(await defaultBranch(clone)).toBe('refs/remotes/origin/trunk')
    const solo = await makeRepo()
    await solo.git(['checkout', '-q', '-b', 'dev'])
    await solo.commit('x')
    expect(await defaultBranch(solo.dir)).toBe('refs/heads/dev')
  })

  it("lists each remote's fetch refspecs", async () => {
    const repo = await makeRepo()
    expect(await remoteFetchSpecs(repo.dir)).toEqual(new Map())
    await repo.git(['remote', 'add', 'origin', 'https://example.test/x.git'])
    await repo.git(['remote', 'add', 'mirror', 'https://example.test/y.git'])
    await repo.git(['config', '--add', 'remote.mirror.fetch', 'refs/notes/*:refs/notes/*'])
    expect(await remoteFetchSpecs(repo.dir)).toEqual(
      new Map([
        ['mirror', ['+refs/heads/*:refs/remotes/mirror/*', 'refs/notes/*:refs/notes/*']],
        ['origin', ['+refs/heads/*:refs/remotes/origin/*']]
      ])
    )
  })
})
