import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { roleText } from '../../../bench/fleet-data'
import type { Project } from '../../shared/api'
import { tmpDir } from '../../../test/helpers/tmp'
import { DigestPool } from './digest-pool'
import { POOL_MIN_FILES, RoleCache, scanProjects } from './fleet-scan'
import { digestRole } from './role-digest'

/** The worker as the bundles ship it, built from source for this test. */
let script = ''
let pool: DigestPool
beforeAll(async () => {
  script = join(tmpDir(), 'digest-worker.mjs')
  await build({
    entryPoints: [join(import.meta.dirname, 'digest-worker.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: script,
    logLevel: 'warning'
  })
  pool = new DigestPool(script, 2)
})
afterAll(() => pool.close())

/** `n` projects of 8 generated role files each, with CRLF, a BOM and an empty file among them. */
function fleet(n: number): Project[] {
  const root = tmpDir()
  return Array.from({ length: n }, (_, i) => {
    const path = join(root, `p${i}`)
    mkdirSync(join(path, '.muse'), { recursive: true })
    for (const role of ['strategy', 'build', 'growth', 'qa', 'gm', 'ops', 'research', 'fundraise']) {
      let text = roleText(i, role, 40 + ((i * 7) % 60))
      if (role === 'qa' && i % 3 === 0) text = text.replace(/\n/g, '\r\n')
      if (role === 'gm' && i % 4 === 0) text = '\uFEFF' + text
      if (role === 'ops' && i === 1) text = ''
      writeFileSync(join(path, '.muse', `${role}.md`), text)
    }
    return { name: `p${i}`, path, key: `P${i}`, addedAt: '' }
  })
}

describe('the digest pool: many uncached role files digested on worker threads', () => {
  it('gives exactly the digests the scan makes in process, and counts them as parsed', async () => {
    const projects = fleet(12)
    expect(projects.length * 8).toBeGreaterThanOrEqual(POOL_MIN_FILES)
    // a clock past the racy window, so that the digests are cached
    const onWorkers = new RoleCache({ pool, now: () => Date.now() + 60_000 })
    const here = new RoleCache({ pool: null })
    const a = await scanProjects(projects, onWorkers)
    const b = await scanProjects(projects, here)
    expect(a).toEqual(b)
    expect(onWorkers.stats).toEqual({ parsed: 96, cached: 0 })
    expect(pool.digested).toBe(96)
    // the second scan answers from the cache, without the workers
    await scanProjects(projects, onWorkers)
    expect(onWorkers.stats).toEqual({ parsed: 96, cached: 96 })
    expect(pool.digested).toBe(96)
  })

  it('calls at the same time take turns and each gets its own files back', async () => {
    const dir = tmpDir()
    const items = (tag: string) =>
      Array.from({ length: 40 }, (_, i) => {
        writeFileSync(join(dir, `${tag}${i}.md`), `<!-- L0: v1 | ${tag} ${i} | ok -->\n`)
        return { path: join(dir, `${tag}${i}.md`), file: `${tag}${i}.md` }
      })
    const [a, b] = await Promise.all([pool.digestAll(items('a')), pool.digestAll(items('b'))])
    expect(a.map((r) => (r.ok ? r.digest.file : r.code))).toEqual(Array.from({ length: 40 }, (_, i) => `a${i}.md`))
    expect(b.map((r) => (r.ok ? r.digest.file : r.code))).toEqual(Array.from({ length: 40 }, (_, i) => `b${i}.md`))
  })

  it('reports a file it cannot read with its error code', async () => {
    const dir = tmpDir()
    writeFileSync(join(dir, 'build.md'), '<!-- L0: v1 | build | ok -->\n')
    const [ok, missing] = await pool.digestAll([
      { path: join(dir, 'build.md'), file: 'build.md' },
      { path: join(dir, 'gone.md'), file: 'gone.md' }
    ])
    expect(pool.digested).toBe(178)
    expect(ok).toMatchObject({ ok: true, digest: { role: 'build', lineCount: 1 } })
    expect(missing).toMatchObject({ ok: false, code: 'ENOENT' })
  })

  it('a worker that cannot start: the scan digests in process instead, with the same result', async () => {
    const broken = join(tmpDir(), 'broken-worker.mjs')
    writeFileSync(broken, "throw new Error('no worker today')\n")
    const bad = new DigestPool(broken, 2)
    const projects = fleet(9)
    expect(projects.length * 8).toBeGreaterThanOrEqual(POOL_MIN_FILES)
    const viaBroken = await scanProjects(projects, new RoleCache({ pool: bad }))
    expect(viaBroken).toEqual(await scanProjects(projects, new RoleCache({ pool: null })))
    expect(viaBroken.flatMap((p) => p.unreadable)).toEqual([])
    expect(bad.digested).toBe(0)
    await bad.close()
  })

  it('files larger than its read buffer, between smaller ones: each digest is of that file alone', async () => {
    const dir = tmpDir()
    // the worker reads into one reused buffer (256 KiB at first): a big file grows it, a small one after must not see its tail
    const sizes = [40, 4000, 3, 9000, 0, 60, 2500, 1]
    const items = sizes.map((lines, i) => {
      const path = join(dir, `r${i}.md`)
      writeFileSync(path, lines ? roleText(i, `r${i}`, lines) : '')
      return { path, file: `r${i}.md` }
    })
    expect(readFileSync(items[3]!.path).length).toBeGreaterThan(512 * 1024)
    const got = await pool.digestAll(items, { stat: true })
    got.forEach((r, i) => {
      expect(r.ok).toBe(true)
      const bytes = readFileSync(items[i]!.path)
      if (r.ok) expect({ digest: r.digest, size: r.stat?.size }).toEqual({ digest: digestRole(items[i]!.file, bytes), size: bytes.length })
    })
  })
})
