/**
 * esbuild plugin: imports of a core domain's face (`src/core/<domain>/index.ts`, a list of
 * `export { ... } from './module'` lines) are rewritten to import each name from the module that
 * defines it. The faces are the lint-enforced public surface (scripts/eslint/domain-faces.js);
 * the bundles must not pay for them: with code splitting a face would be a shared chunk that
 * statically imports every module it re-exports, so `approve-hook` or `muster status` would load
 * the service, zod and the remote hub client because they import one function from a face.
 * Type-only imports are left alone (esbuild erases them). A face may hold only re-export lines;
 * anything else, or a default or namespace import of a face, fails the build with a clear message.
 */
import { existsSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

const EXPORT_RE = /export\s+(type\s+)?\{([^}]*)\}\s+from\s+'([^']+)'/g
const IMPORT_RE = /(^|\n)(\s*)(import|export)\s+(type\s+)?\{([^}]*)\}\s+from\s+'(\.[^']*)'/g

/**
 * The face file `spec` (relative to `dir`) names, or null when it is not a face: the index.ts of a
 * domain (src/core/<domain>) or of one of its strata (src/core/<domain>/<stratum>), imported from
 * outside that domain.
 */
function faceFile(dir, spec, coreDir) {
  const target = resolve(dir, spec).replace(/\/index$/, '')
  const file = join(target, 'index.ts')
  if (!file.startsWith(coreDir) || !existsSync(target) || !statSync(target).isDirectory() || !existsSync(file)) return null
  const parts = relative(coreDir, target).split('/')
  if (parts.length > 2) return null
  const domain = join(coreDir, parts[0]) + '/'
  return (dir + '/').startsWith(domain) ? null : file
}

/** Splits `a, b as c, type T` into [{ name, local, type }]. */
function specifiers(list) {
  return list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const type = s.startsWith('type ')
      const [name, local] = s.replace(/^type\s+/, '').split(/\s+as\s+/)
      return { name, local: local ?? name, type }
    })
}

/** A face's names: exported name -> { file, name } of its definition (faces of faces followed). */
function readFace(file, coreDir, cache) {
  if (cache.has(file)) return cache.get(file)
  const text = readFileSync(file, 'utf8')
  const rest = text
    .replace(EXPORT_RE, '')
    .replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')
    .trim()
  if (rest)
    throw new Error(
      `${relative(process.cwd(), file)}: a domain face holds only \`export { ... } from './x'\` lines (found: ${rest.slice(0, 60)})`
    )
  const names = new Map()
  for (const m of text.matchAll(EXPORT_RE)) {
    const face = faceFile(dirname(file), m[3], coreDir)
    const inner = face ? readFace(face, coreDir, cache) : null
    for (const s of specifiers(m[2])) {
      const def = inner ? inner.get(s.name) : { file: resolve(dirname(file), m[3]), name: s.name }
      if (!def) throw new Error(`${relative(process.cwd(), file)}: '${s.name}' is not exported by ${m[3]}`)
      names.set(s.local, def)
    }
  }
  cache.set(file, names)
  return names
}

/** The plugin; `root` is the repository. */
export function flattenFaces(root) {
  const srcDir = join(root, 'src') + '/'
  const coreDir = join(root, 'src', 'core') + '/'
  return {
    name: 'muster-flatten-faces',
    setup(b) {
      const cache = new Map()
      b.onLoad({ filter: /\.ts$/ }, (a) => {
        if (!a.path.startsWith(srcDir)) return undefined
        const text = readFileSync(a.path, 'utf8')
        const dir = dirname(a.path)
        let changed = false
        const contents = text.replace(IMPORT_RE, (whole, lead, indent, kw, typeOnly, list, spec) => {
          if (typeOnly) return whole
          const face = faceFile(dir, spec, coreDir)
          if (!face) return whole
          const names = readFace(face, coreDir, cache)
          const byFile = new Map()
          for (const s of specifiers(list)) {
            const def = names.get(s.name)
            if (!def) throw new Error(`${relative(root, a.path)}: '${s.name}' is not on the face ${relative(root, face)}`)
            const part = `${s.type ? 'type ' : ''}${def.name === s.local ? def.name : `${def.name} as ${s.local}`}`
            byFile.set(def.file, [...(byFile.get(def.file) ?? []), part])
          }
          changed = true
          const lines = [...byFile].map(([file, parts]) => `${kw} { ${parts.join(', ')} } from ${JSON.stringify(file)}`)
          return lead + indent + lines.join('; ')
        })
        if (/import\s*(\*\s*as\s+\w+|\w+)\s+from\s+'\.[^']*'/.test(text)) {
          for (const m of text.matchAll(/import\s*(?:\*\s*as\s+\w+|\w+)\s+from\s+'(\.[^']*)'/g))
            if (faceFile(dir, m[1], coreDir)) throw new Error(`${relative(root, a.path)}: import named bindings from the face '${m[1]}'`)
        }
        return changed ? { contents, loader: 'ts', resolveDir: dir } : undefined
      })
    }
  }
}
