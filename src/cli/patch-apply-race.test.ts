/**
 * Two `muster patch apply` processes for one patch (issue 36, point 9): the first is held inside
 * its test command (a hook: the command waits for a file the test writes), after it has written
 * the worktree; the second must be refused as "still running", never for the dirty worktree the
 * first one left, because the run is claimed before anything looks at or touches the worktree.
 */
import { spawn } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { builtCli, runBuiltCli } from '../../test/helpers/built-cli'
import { makePatch, patchWorld, type PatchWorld } from '../../test/helpers/patch-setup'
import { tmpDir } from '../../test/helpers/tmp'

let w: PatchWorld | undefined
afterEach(async () => {
  await w?.close()
  w = undefined
})

/** Resolves when `file` exists (the held process reached its hook). */
async function reached(file: string): Promise<void> {
  for (let i = 0; i < 2400 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 25))
  if (!existsSync(file)) throw new Error(`${file} never appeared`)
}

describe('two patch apply processes at once', () => {
  it('the second is refused as still running while the first sits in its tests', async () => {
    w = await patchWorld()
    const id = await w.submit(await makePatch(w.repo, { 'src/app.txt': 'alpha\nBETA\ngamma\ndelta\n' }))
    const dir = tmpDir()
    const inTests = join(dir, 'in-tests')
    const go = join(dir, 'go')
    const hold = `touch '${inTests}'; while [ ! -e '${go}' ]; do sleep 0.05; done; sh test.sh`
    const first = spawn(
      process.execPath,
      [builtCli(), 'patch', 'apply', id, '--project', 'demo', '--test', hold, '--palace', w.palace, '--home', w.home],
      {
        env: { ...process.env, MUSTER_NO_BACKGROUND: '1' },
        stdio: ['ignore', 'pipe', 'pipe']
      }
    )
    let out = ''
    first.stdout.on('data', (d: Buffer) => (out += d.toString()))
    first.stderr.on('data', (d: Buffer) => (out += d.toString()))
    const exited = new Promise<number>((resolve) => first.on('close', (code) => resolve(code ?? -1)))
    await reached(inTests)
    // the first apply has written the worktree: it is dirty now
    expect(await w.status()).toContain('src/app.txt')

    const second = runBuiltCli(w.home, 'patch', 'apply', id, '--project', 'demo', '--palace', w.palace)
    expect(second.code).toBe(1)
    expect(second.err).toMatch(/still running/)
    expect(second.err).not.toMatch(/dirty worktree/)

    writeFileSync(go, '')
    expect(await exited).toBe(0)
    expect(out).toMatch(/acked applied/)
    expect((await w.acksOf(id)).map((a) => a.status)).toEqual(['applied'])
    // once it has applied, a third is refused as already applied
    const third = runBuiltCli(w.home, 'patch', 'apply', id, '--project', 'demo', '--palace', w.palace)
    expect(third.code).toBe(1)
    expect(third.err).toMatch(/already applied/)
  })
})
