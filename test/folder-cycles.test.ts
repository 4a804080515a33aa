/**
 * No import cycle between folders of src/core: at every depth, the sibling folders (the domains
 * under src/core, the strata under src/core/hub) import each other in one direction only, type
 * imports and lazy `import()` included. Files directly in a folder (src/core/service.ts) are that
 * folder's own and not a node of the graph.
 */
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..')
const CORE = join(ROOT, 'src', 'core')

/** Every non-test source file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) return sources(p)
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [p] : []
  })
}

/** The file a relative specifier names, or null. */
function resolveSpec(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec)
  return [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((c) => existsSync(c)) ?? null
}

/** Folder-level edges: `parent folder -> (child folder -> child folders it imports, with one file edge as the example)`. */
function folderGraph(): Map<string, Map<string, Map<string, string>>> {
  const levels = new Map<string, Map<string, Map<string, string>>>()
  for (const file of sources(CORE)) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true)
    for (const { fileName } of info.importedFiles) {
      if (!fileName.startsWith('.')) continue
      const target = resolveSpec(file, fileName)
      if (!target || !target.startsWith(CORE + sep)) continue
      const a = relative(CORE, file).split(sep)
      const b = relative(CORE, target).split(sep)
      let i = 0
      while (i < a.length - 1 && i < b.length - 1 && a[i] === b[i]) i++
      // both sides must be folders at the level where they part
      if (i >= a.length - 1 || i >= b.length - 1 || a[i] === b[i]) continue
      const parent = a.slice(0, i).join('/') || '.'
      const level = levels.get(parent) ?? new Map<string, Map<string, string>>()
      levels.set(parent, level)
      const out = level.get(a[i]!) ?? new Map<string, string>()
      level.set(a[i]!, out)
      if (!out.has(b[i]!)) out.set(b[i]!, `${relative(CORE, file)} -> ${relative(CORE, target)}`)
    }
  }
  return levels
}

/** Each cycle of a graph as a list of its edges' example file imports. */
function cycles(graph: Map<string, Map<string, string>>): string[][] {
  const found: string[][] = []
  const state = new Map<string, 'open' | 'done'>()
  const path: string[] = []
  const visit = (n: string): void => {
    state.set(n, 'open')
    path.push(n)
    for (const m of graph.get(n)?.keys() ?? []) {
      if (state.get(m) === 'open') {
        const loop = [...path.slice(path.indexOf(m)), m]
        found.push(loop.slice(1).map((to, k) => `${loop[k]} -> ${to}: ${graph.get(loop[k]!)!.get(to)}`))
      } else if (!state.has(m)) visit(m)
    }
    path.pop()
    state.set(n, 'done')
  }
  for (const n of graph.keys()) if (!state.has(n)) visit(n)
  return found
}

describe('src/core folders', () => {
  it('import each other without a cycle, at every depth', () => {
    const levels = folderGraph()
    expect(levels.get('.')?.size, 'the graph of the domains was read').toBeGreaterThan(5)
    const all = [...levels].flatMap(([parent, graph]) => cycles(graph).map((c) => `in ${parent}: ${c.join(' | ')}`))
    expect(all).toEqual([])
  })

  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['fleet', new Map([['hub', 'fleet/demo.ts -> hub/writer.ts']])],
      ['hub', new Map([['fleet', 'hub/standalone.ts -> fleet/registry.ts']])]
    ])
    expect(cycles(graph)).toHaveLength(1)
  })

  it('src/core/hub holds at most 20 files and folders', () => {
    expect(readdirSync(join(CORE, 'hub')).length).toBeLessThanOrEqual(20)
  })
})
