/**
 * The fleet scan on the bench fleet (200 projects x 8 role files, ~66 MB): a full parse without
 * any cache, the warm start from the parse cache in the state DB, and `muster status` as a whole
 * process (answered from its status snapshot, as agents' hooks run it again and again) against
 * `grep` + `wc` reading the same files.
 */
import { spawnSync } from 'node:child_process'
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createService } from '../src/core/root'
import { collectDirectives } from '../src/core/muse/directive-index'
import { readFleetView, RoleCache } from '../src/core/muse/fleet-scan'
import { lintFleet } from '../src/core/muse/lint'
import { RACY_MS } from '../src/core/muse/parse-cache'
import { parseRole } from '../src/core/muse/parse-role'
import { listRoleFiles, museDir } from '../src/core/muse/role-files'
import type { Project } from '../src/shared/api'
import { interleavedMedians, interleavedRuns, roundRatios } from './cli-bench'
import { median, type Figure } from './report'

/** Full parse without cache: read + digest every role file, directives collected, lint checks (no git). */
async function fullParse(projects: Project[]): Promise<number> {
  const t = performance.now()
  // as the directive and lint views build it (the hub is detected while the files are read)
  const fleet = await readFleetView(projects, new RoleCache(), null)
  collectDirectives(fleet)
  await lintFleet(fleet, null, async () => null)
  return performance.now() - t
}

/** The reference parser on the same files: read + decode + parseRole (what the scan did before the digest). */
async function referenceParse(projects: Project[]): Promise<number> {
  const t = performance.now()
  for (const p of projects) for (const f of await listRoleFiles(p.path)) parseRole(f, readFileSync(join(museDir(p.path), f), 'utf8'))
  return performance.now() - t
}

/**
 * Parse, warm start and `muster status` figures for the fleet in `fleetDir`, registered in
 * `home` (a fresh home: this fills its parse cache). `bin` is `bin/muster.cjs`.
 */
export async function fleetScanFigures(fleetDir: string, home: string, bin: string): Promise<Figure[]> {
  const setup = await createService({ home, transport: 'http', watch: false })
  await setup.call('projects.scan', { dir: fleetDir })
  const projects = await setup.call('projects.list', {})
  await setup.close()
  const files = projects.length * (await listRoleFiles(projects[0]!.path)).length

  const parse: number[] = []
  for (let i = 0; i < 5; i++) parse.push(await fullParse(projects))
  const reference = await referenceParse(projects)

  // muster status, first run on a home without cache (files are re-read, digests stored when settled)
  const coldHome = mkdtempSync(join(home, '..', 'home-cold-'))
  spawnSync(process.execPath, [bin, 'projects', 'scan', fleetDir, '--home', coldHome], { stdio: 'ignore' })
  const [cold] = interleavedMedians([[process.execPath, bin, 'status', '--home', coldHome]], 1)

  // the warm start needs digests in the DB: files must be older than the racy window when read
  await new Promise((r) => setTimeout(r, RACY_MS + 100))
  const fill = await createService({ home, transport: 'http', watch: false })
  await fill.call('fleet.status', {})
  await fill.call('muse.directives', {})
  await fill.close()
  const warm: number[] = []
  const withDirectives: number[] = []
  for (let i = 0; i < 5; i++) {
    const service = await createService({ home, transport: 'http', watch: false })
    const t = performance.now()
    await service.call('fleet.status', {})
    warm.push(performance.now() - t)
    await service.call('muse.directives', {})
    withDirectives.push(performance.now() - t)
    await service.close()
  }

  // `muster status` as agents' hooks run it, again and again: the first run keeps the cards in the
  // status snapshot, later ones print from it; then the run after one role file changed
  const grep = ['sh', '-c', "grep -H '<!-- L0:' */.muse/*.md; wc -l */.muse/*.md"]
  const status = [process.execPath, bin, 'status', '--home', home]
  const [first] = interleavedMedians([status], 1, fleetDir)
  const [grepRuns, statusRuns] = interleavedRuns([grep, status], 21, fleetDir)
  const statusRatios = roundRatios(statusRuns!, grepRuns!)
  const role = join(projects[3]!.path, '.muse', 'qa.md')
  const before = readFileSync(role)
  appendFileSync(role, '- [ ] one more item\n')
  const [changed] = interleavedMedians([status], 1, fleetDir)
  writeFileSync(role, before)
  return [
    {
      name: `full parse, no cache: read + digest (directives, TODOs, sections) + lint of ${files} files`,
      value: median(parse),
      runs: parse,
      unit: 'ms',
      budget: 300,
      note: `median of 5 (issue 7 target; PRODUCT.md budget 1 s); reference parseRole (read + decode + parse) ${reference.toFixed(0)} ms; lint without git`
    },
    {
      name: 'warm start: fleet.status of 200 projects from the parse cache, new service',
      value: median(warm),
      runs: warm,
      unit: 'ms',
      budget: 150,
      note: `median of 5; with muse.directives too ${median(withDirectives).toFixed(0)} ms`
    },
    {
      name: "muster status vs grep -H '<!-- L0:' + wc -l on the same files (whole processes)",
      value: median(statusRatios),
      runs: statusRatios,
      unit: 'x',
      budget: 2,
      note: `median ratio of 21 interleaved rounds; medians ${median(statusRuns!).toFixed(0)} vs ${median(grepRuns!).toFixed(0)} ms; first run without any cache ${cold!.toFixed(0)} ms, first from the parse cache ${first!.toFixed(0)} ms, after one role file changed ${changed!.toFixed(0)} ms`
    }
  ]
}
