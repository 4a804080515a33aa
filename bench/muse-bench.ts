/**
 * MUSE figures: full fleet parse, one changed file re-parsed and pushed, memory search.
 */
import { mkdirSync, writeFileSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createService } from '../src/core/root'
import type { PushedEvent } from '../src/shared/api'
import { writeFleet } from './fleet-data'
import { fleetScanFigures } from './fleet-scan-bench'
import { median, percentile, type Figure } from './report'

/**
 * 200 projects x 8 role files: full parse, warm start, `muster status` vs grep (fleet-scan-bench.ts),
 * then one file changed -> pushed -> re-parsed. `bin` is `bin/muster.cjs`.
 */
export async function fleetFigures(work: string, bin: string): Promise<Figure[]> {
  const fleetDir = join(work, 'fleet')
  const roots = writeFleet(fleetDir, 200, 8, 300)
  const scan = await fleetScanFigures(fleetDir, join(work, 'home-fleet'), bin)

  // Live service: the watcher pushes `fleet.changed`; the renderer then refetches that project.
  const live = await createService({ home: join(work, 'home-fleet'), transport: 'http', watch: true })
  await live.call('fleet.status', {})
  await new Promise((r) => setTimeout(r, 1500))
  const name = (await live.call('projects.list', {}))[17]!.name
  const file = join(roots[17]!, '.muse', 'build.md')
  const original = readFileSync(file, 'utf8')
  const latencies: number[] = []
  for (let i = 0; i < 20; i++) {
    const pushed = new Promise<void>((resolve) => {
      const off = live.subscribe((e: PushedEvent) => {
        if (e.name === 'fleet.changed' && e.payload.project === name) {
          off()
          resolve()
        }
      })
    })
    const t = performance.now()
    writeFileSync(file, original.replace(/^<!-- L0: [^|]*/, `<!-- L0: v9.${i}.0 `))
    await pushed
    const [p] = await live.call('fleet.status', { project: name })
    if (p!.roles.find((r) => r.role === 'build')?.l0?.version !== `v9.${i}.0`) throw new Error('re-parse did not see the edit')
    latencies.push(performance.now() - t)
    await new Promise((r) => setTimeout(r, 150))
  }
  await live.close()
  return [
    ...scan,
    {
      name: 'one role file changed -> pushed -> re-parsed (p95 of 20)',
      value: percentile(latencies, 95),
      runs: latencies,
      unit: 'ms',
      budget: 50,
      note: `median ${median(latencies).toFixed(1)} ms`
    }
  ]
}

/** Memory search over 2,000 daily logs (index built first, then ranked queries timed). */
export async function memoryFigures(work: string): Promise<Figure[]> {
  const root = join(work, 'memproj')
  mkdirSync(join(root, '.muse'), { recursive: true })
  mkdirSync(join(root, 'memory'), { recursive: true })
  writeFileSync(join(root, '.muse', 'build.md'), '<!-- L0: v1.0.0 | bench | ok -->\n')
  const day = Date.UTC(2021, 0, 1)
  for (let i = 0; i < 2000; i++) {
    const d = new Date(day + i * 86_400_000).toISOString().slice(0, 10)
    const lines = [`# ${d}`, '', `## [BUILD] Session 1: 修复 MCP server 第${i}号问题 (10:00-11:30)`, '', '### 完成']
    for (let j = 0; j < 12; j++)
      lines.push(`- 处理 issue #${i * 12 + j}: cache index rebuild ${j % 3 ? 'timeout' : '超时重试'} in module ${i % 50}`)
    lines.push('', '### 决策', `- 采用 trigram 分词以支持中文检索 (${i})`, '', '### ➡️ 下一步', '- 继续 QA 验收')
    writeFileSync(join(root, 'memory', `${d}.md`), lines.join('\n') + '\n')
  }
  const service = await createService({ home: join(work, 'home-mem'), transport: 'http', watch: true })
  await service.call('projects.add', { path: root, name: 'memproj' })
  const t0 = performance.now()
  await service.call('muse.memorySearch', { project: 'memproj', query: '超时重试', scope: 'all', limit: 50 })
  const indexMs = performance.now() - t0
  const queries = ['超时重试', 'cache index rebuild', 'trigram 分词', 'module 42', 'QA 验收']
  const times: number[] = []
  for (let i = 0; i < 25; i++) {
    const t = performance.now()
    const res = await service.call('muse.memorySearch', {
      project: 'memproj',
      query: queries[i % queries.length]!,
      scope: 'all',
      limit: 50
    })
    times.push(performance.now() - t)
    if (res.hits.length === 0) throw new Error(`no hits for ${queries[i % queries.length]}`)
  }
  await service.close()
  return [
    {
      name: 'memory search over 2,000 daily logs (ranked, p95 of 25)',
      value: percentile(times, 95),
      runs: times,
      unit: 'ms',
      budget: 50,
      note: `first search incl. indexing ${indexMs.toFixed(0)} ms`
    }
  ]
}
