#!/usr/bin/env node
/**
 * `node scripts/bundle-table.mjs`: the bundle table of ARCHITECTURE.md, read from esbuild's import
 * graph of a fresh CLI build (`build-cli.mjs --metafile` into a temporary folder): for each entry
 * bin/muster.cjs can load, its source, what it loads when it starts (its file and the chunks it
 * imports statically: size and the source areas they hold) and what it loads only on demand.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const dir = mkdtempSync(join(tmpdir(), 'muster-bundles-'))
try {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-cli.mjs'), '--outdir', dir, '--metafile'], { stdio: 'ignore' })
  const { outputs } = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8'))
  const byName = new Map(Object.entries(outputs).map(([path, o]) => [basename(path), o]))
  /** The area of a source file: a folder of src/core, src/cli, src/shared, src/server, or a package. */
  const area = (input) => {
    if (input.startsWith('muster-lazy-builtin:')) return `node:${input.slice(20).split('?')[0]} (on first use)`
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)
    if (pkg) return pkg[1]
    const m = /^src\/(core\/[^/]+(?=\/)|[^/]+)/.exec(input)
    return m ? m[1].replace(/^core\/(.+)$/, 'core/$1') : input
  }
  /** The files loaded with `name` (itself and its static imports), and those it loads on demand. */
  const closure = (name) => {
    const seen = new Set()
    const later = new Set()
    const walk = (n) => {
      if (seen.has(n) || !byName.has(n)) return
      seen.add(n)
      for (const i of byName.get(n).imports) {
        const target = basename(i.path)
        if (!byName.has(target)) continue
        if (i.kind === 'dynamic-import' || (i.external && target.startsWith('lazy-'))) later.add(target)
        else walk(target)
      }
    }
    walk(name)
    for (const n of seen) later.delete(n)
    return { seen, later }
  }
  const entries = [...byName.entries()]
    .filter(
      ([n, o]) => o.entryPoint && !n.startsWith('chunk-') && !/-[A-Z0-9]{8}\.mjs$/.test(n) && !n.startsWith('action-') && n !== 'meta.json'
    )
    .map(([n]) => n)
    .sort()
  const kb = (b) => `${Math.round(b / 1024)} KB`
  const rows = [['bundle', 'source', 'loads at start', 'areas in it', 'loads on demand']]
  for (const n of [...entries, 'action-*.mjs']) {
    const names = n === 'action-*.mjs' ? [...byName.keys()].filter((k) => k.startsWith('action-')) : [n]
    const { seen, later } = names
      .map(closure)
      .reduce((a, b) => ({ seen: new Set([...a.seen, ...b.seen]), later: new Set([...a.later, ...b.later]) }))
    const bytes = [...seen].reduce((s, f) => s + byName.get(f).bytes, 0)
    const areas = new Map()
    for (const f of seen)
      for (const [input, i] of Object.entries(byName.get(f).inputs)) areas.set(area(input), (areas.get(area(input)) ?? 0) + i.bytesInOutput)
    const top = [...areas.entries()]
      .filter(([, b]) => b >= 2048)
      .sort((a, b) => b[1] - a[1])
      .map(([a]) => a)
    const shown = top.length > 8 ? [...top.slice(0, 8), `${top.length - 8} more`] : top
    const source = n === 'action-*.mjs' ? 'src/cli/actions/*' : byName.get(n).entryPoint
    const onDemand = [...later].filter((f) => !f.startsWith('action-')).map((f) => f.replace(/-[A-Z0-9]{8}\.mjs$/, '.mjs'))
    rows.push([
      `\`${n}\``,
      `\`${source}\``,
      `${kb(bytes)} in ${seen.size} file${seen.size === 1 ? '' : 's'}`,
      shown.join(', ') || '—',
      n === 'muster.cjs' ? 'one `action-<command>.mjs` per command' : [...new Set(onDemand)].sort().join(', ') || '—'
    ])
  }
  process.stdout.write(
    rows.map((r, i) => `| ${r.join(' | ')} |${i === 0 ? `\n|${r.map(() => ' --- ').join('|')}|` : ''}`).join('\n') + '\n'
  )
} finally {
  rmSync(dir, { recursive: true, force: true })
}
