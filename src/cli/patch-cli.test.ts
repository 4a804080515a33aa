/**
 * `muster artifact get|put` and `muster patch list|verify|apply|submit` in-process, on a real hub
 * and a real git repository registered as a project in the same Muster home.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { makePatch, patchWorld, type PatchWorld } from '../../test/helpers/patch-setup'
import { tmpDir } from '../../test/helpers/tmp'
import { PATCH_WARNING_CRLF, PATCH_WARNING_NO_TRAILING_NEWLINE } from '../core/hub/values/validate'
import { runCliIn, type CliRun } from '../../test/helpers/cli'

let w: PatchWorld | undefined
afterEach(async () => {
  await w?.close()
  w = undefined
})

function run(home: string, palace: string, ...args: string[]): Promise<CliRun> {
  return runCliIn(home, ...args, '--palace', palace)
}

describe('muster artifact', () => {
  it('put stores the exact bytes and reports upstream warnings; get gives them back exactly', async () => {
    w = await patchWorld()
    const file = join(tmpDir(), 'crlf.patch')
    const bytes = 'diff --git a/x b/x\r\n--- a/x\r\n+++ b/x\r\n@@ -1 +1 @@\r\n-a\r\n+b é'
    writeFileSync(file, bytes)
    const put = await run(w.home, w.palace, 'artifact', 'put', '--kind', 'patch', '--created-by', 'mac-codex', '--file', file)
    expect(put.code).toBe(0)
    expect(put.err).toBe(`Warning: ${PATCH_WARNING_NO_TRAILING_NEWLINE}\nWarning: ${PATCH_WARNING_CRLF}\n`)
    const id = /^Stored (art_\w+) /.exec(put.out)![1]!
    const out = join(tmpDir(), 'back.patch')
    expect((await run(w.home, w.palace, 'artifact', 'get', id, '--out', out)).code).toBe(0)
    expect(readFileSync(out).equals(Buffer.from(bytes))).toBe(true)
    expect((await run(w.home, w.palace, 'artifact', 'get', id)).out).toBe(bytes)
    const j = JSON.parse((await run(w.home, w.palace, 'artifact', 'get', id, '--json')).out)
    expect(j).toMatchObject({ id, kind: 'patch', created_by: 'mac-codex', content: bytes })

    w.tamper(id, bytes + 'x')
    const bad = await run(w.home, w.palace, 'artifact', 'get', id)
    expect(bad.code).toBe(1)
    expect(bad.err).toContain('does not match its stored sha256')
  })

  it('put refuses a file that is not UTF-8 and writes nothing', async () => {
    w = await patchWorld()
    const file = join(tmpDir(), 'bin.patch')
    writeFileSync(file, Buffer.from([0x66, 0xff, 0x0a]))
    const r = await run(w.home, w.palace, 'artifact', 'put', '--kind', 'patch', '--created-by', 'a', '--file', file)
    expect(r).toMatchObject({ code: 1, out: '' })
    expect(r.err).toBe("Error: 'utf-8' codec can't decode byte 0xff in position 1: invalid start byte\n")
  })
})

describe('muster patch', () => {
  it('list, verify, apply with live test output and the ack, then a second apply is refused', async () => {
    w = await patchWorld()
    const id = await w.submit(await makePatch(w.repo, { 'src/app.txt': 'alpha\nBETA\ngamma\ndelta\n' }))
    const list = await run(w.home, w.palace, 'patch', 'list')
    expect(list.code).toBe(0)
    expect(list.out).toMatch(new RegExp(`${id}\\s+waiting\\s+ok\\s+win-codex`))
    expect(list.out).toContain('1 patch: 1 waiting, 0 applied')

    const v = await run(w.home, w.palace, 'patch', 'verify', id)
    expect(v).toMatchObject({ code: 0, err: '' })
    expect(v.out).toContain(`${id}: verified\n`)
    expect(v.out).toMatch(/computed [0-9a-f]{64} {2}match/)

    const a = await run(w.home, w.palace, 'patch', 'apply', id, '--test', 'sh test.sh')
    expect(a.err).toBe('')
    expect(a.code).toBe(0)
    expect(a.out).toMatch(/^project demo \(matches stream project\/demo, branch main, base commit [0-9a-f]{12}\)\n/)
    expect(a.out).toContain('checking src/app.txt\nok 1 - beta is loud\n')
    expect(a.out).toMatch(/applied\nacked applied as \S+\n/)
    expect(readFileSync(join(w.repo.dir, 'src/app.txt'), 'utf8')).toBe('alpha\nBETA\ngamma\ndelta\n')
    const [ack] = await w.acksOf(id)
    expect(ack).toMatchObject({ status: 'applied' })

    const again = await run(w.home, w.palace, 'patch', 'apply', id, '--project', 'demo', '--json')
    expect(again.code).toBe(1)
    expect(JSON.parse(again.out).error).toMatch(/already applied/)
    expect(JSON.parse((await run(w.home, w.palace, 'patch', 'list', '--json')).out).patches[0]).toMatchObject({ state: 'applied' })
  })

  it('commit: the applied change only, the agent as author, a message from the patch; twice is refused', async () => {
    w = await patchWorld()
    const id = await w.submit(await makePatch(w.repo, { 'src/app.txt': 'alpha\nBETA\ngamma\ndelta\n' }))
    const a = await run(w.home, w.palace, 'patch', 'apply', id, '--project', 'demo', '--json')
    expect(a.code).toBe(0)
    const runId = (JSON.parse(a.out) as { id: string }).id
    writeFileSync(join(w.repo.dir, 'unrelated.txt'), 'mine\n') // the operator's own change stays out of the commit
    const c = await run(w.home, w.palace, 'patch', 'commit', runId)
    expect(c).toMatchObject({ code: 0, err: '' })
    expect(c.out).toMatch(/^committed [0-9a-f]{12} \(author win-codex <win-codex@agents\.muster\.invalid>\): /)
    const show = execFileSync('git', ['-C', w.repo.dir, 'show', '--stat', '--format=%an|%s', 'HEAD'], { encoding: 'utf8' })
    expect(show).toMatch(/^win-codex\|/)
    expect(show).toContain('src/app.txt')
    expect(show).not.toContain('unrelated.txt')
    const again = await run(w.home, w.palace, 'patch', 'commit', runId)
    expect(again.code).toBe(1)
    expect(again.err).toMatch(/nothing to commit/)
  })

  it('failing tests exit 1 with the ack failed and a revert offer', async () => {
    w = await patchWorld()
    const id = await w.submit(await makePatch(w.repo, { 'src/app.txt': 'alpha\nquiet\ngamma\ndelta\n' }))
    const a = await run(w.home, w.palace, 'patch', 'apply', id, '--project', 'demo', '--test', 'sh test.sh')
    expect(a.code).toBe(1)
    expect(a.out).toContain('not ok 1 - beta is quiet')
    expect(a.out).toMatch(
      /failed: tests failed \(exit 1\)\nacked failed as \S+\nthe worktree can be put back as it was: muster patch revert \S+\n$/
    )
    const runId = /muster patch revert (\S+)/.exec(a.out)![1]!
    const r = await run(w.home, w.palace, 'patch', 'revert', runId)
    expect(r).toMatchObject({ code: 0, out: `reverted ${runId}: 1 path restored (src/app.txt)\n` })
    expect(await w.status()).toBe('')
    expect((await run(w.home, w.palace, 'patch', 'revert', runId)).err).toMatch(/already reverted/)
  })

  it('a tampered artifact: verify exits 1 and says why; apply is refused and nothing changes', async () => {
    w = await patchWorld()
    const patch = await makePatch(w.repo, { 'src/app.txt': 'alpha\nBETA\ngamma\ndelta\n' })
    const id = await w.submit(patch)
    w.tamper((await w.hubs.get({ palace: w.palace, id })).event.artifact_ids[0]!, patch.replace('+BETA', '+BETA!'))
    const v = await run(w.home, w.palace, 'patch', 'verify', id)
    expect(v.code).toBe(1)
    expect(v.out).toContain(`${id}: REFUSED`)
    expect(v.out).toContain('MISMATCH')
    const a = await run(w.home, w.palace, 'patch', 'apply', id, '--project', 'demo')
    expect(a.code).toBe(1)
    expect(a.err).toMatch(/apply refused: verification refused/)
    expect(await w.status()).toBe('')
  })

  it('submit sends a file or the working-tree diff byte-exactly', async () => {
    w = await patchWorld()
    writeFileSync(join(w.repo.dir, 'src/app.txt'), 'alpha\nbeta\r\ngamma\ndelta\n')
    const r = await run(
      w.home,
      w.palace,
      'patch',
      'submit',
      '--from-worktree',
      'demo',
      '--to-agent',
      'win-codex',
      '--correlation-id',
      'task_1',
      '--json'
    )
    expect(r.code).toBe(0)
    const j = JSON.parse(r.out)
    expect(j.artifact.warnings).toEqual([PATCH_WARNING_CRLF])
    expect(j.event).toMatchObject({ type: 'patch.ready', to_agent: 'win-codex', correlation_id: 'task_1', stream: 'project/demo' })
    const got = await run(w.home, w.palace, 'artifact', 'get', j.artifact.id)
    expect(got.out).toContain('+beta\r\n')
    const both = await run(w.home, w.palace, 'patch', 'submit', 'x.patch', '--from-worktree', 'demo', '--to-agent', 'a')
    expect(both).toMatchObject({ code: 1, err: expect.stringContaining('not both') })
  })
})
