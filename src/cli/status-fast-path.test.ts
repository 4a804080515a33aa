/**
 * `muster status` reads the fleet without the service (`fleetStatusAt`); it must answer exactly
 * what the service's `fleet.status` answers, cold and from the parse cache, and a new process must
 * find every role file's digest in the state DB.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { copyCorpus } from '../../test/helpers/fixtures'
import { tmpDir } from '../../test/helpers/tmp'
import { fleetStatusAt } from '../core/fleet/fleet-status'
import { openStateDb } from '../core/fleet/state-db'
import { RACY_MS } from '../shared/file-stamp'
import { createService } from '../core/root'
import { runCli } from './index'

async function serviceStatus(home: string, project?: string): Promise<unknown> {
  const service = await createService({ home, transport: 'http', watch: false })
  try {
    return await service.call('fleet.status', project ? { project } : {})
  } finally {
    await service.close()
  }
}

async function cliStatus(home: string): Promise<unknown> {
  let out = ''
  const code = await runCli(['status', '--json', '--home', home], {
    stdout: (t) => (out += t),
    stderr: () => undefined,
    env: {},
    cwd: process.cwd()
  })
  expect(code).toBe(0)
  return (JSON.parse(out) as { projects: unknown }).projects
}

describe('fleetStatusAt (muster status) and fleet.status', () => {
  it('answer the same, cold and from the parse cache, and the cache holds every role file', async () => {
    const home = tmpDir()
    const projects = copyCorpus(tmpDir())
    const copiedAt = Date.now()
    const service = await createService({ home, transport: 'http', watch: false })
    for (const [name, path] of Object.entries(projects)) await service.call('projects.add', { path, name })
    await service.close()

    const cold = await serviceStatus(home)
    expect(await fleetStatusAt(home)).toEqual(cold)
    expect(await cliStatus(home)).toEqual(cold)
    expect(await fleetStatusAt(home, 'orbit')).toEqual(await serviceStatus(home, 'orbit'))

    // once the files are older than the racy window, a read stores every digest; later reads answer from it
    await new Promise((r) => setTimeout(r, Math.max(0, copiedAt + RACY_MS + 50 - Date.now())))
    expect(await fleetStatusAt(home)).toEqual(cold)
    const db = openStateDb(home)
    const rows = db.prepare('SELECT path FROM role_parse_cache ORDER BY path').all() as { path: string }[]
    db.close()
    const roleFiles = (cold as { path: string; roles: { file: string }[] }[])
      .flatMap((p) => p.roles.map((r) => join(p.path, '.muse', r.file)))
      .sort()
    expect(rows.map((r) => r.path)).toEqual(roleFiles)
    expect(await serviceStatus(home)).toEqual(cold)
    expect(await cliStatus(home)).toEqual(cold)

    // an edit shows at once, through either path
    const qa = join(projects.orbit!, '.muse', 'qa.md')
    writeFileSync(qa, '<!-- L0: v9.9.9 | edited | now -->\n')
    const edited = (await fleetStatusAt(home, 'orbit'))[0]!.roles.find((r) => r.file === 'qa.md')!
    expect(edited.l0?.version).toBe('v9.9.9')
    expect(await fleetStatusAt(home, 'orbit')).toEqual(await serviceStatus(home, 'orbit'))
  })

  it('an unknown project is a one-line not_found error, nothing written', async () => {
    const home = tmpDir()
    await expect(fleetStatusAt(home, 'ghost')).rejects.toThrow("unknown project 'ghost' (see: muster projects list)")
  })
})
