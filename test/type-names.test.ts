/**
 * No two exported types in src share a name: a name says one thing everywhere (the hub port
 * `HubPort` and an open hub file `HubFile` were both `Hub`). Declarations only (interfaces, type
 * aliases, classes, enums); re-exports of the same declaration are one type.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '..')
const SRC = join(ROOT, 'src')

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) return sources(p)
    return /\.tsx?$/.test(name) && !/\.(test|spec)\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [p] : []
  })
}

/** Names of the types `file` declares and exports. */
function exportedTypes(file: string): string[] {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false)
  const names: string[] = []
  for (const st of sf.statements) {
    const exported = ts.canHaveModifiers(st) && ts.getModifiers(st)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
    if (!exported) continue
    if (ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st) || ts.isEnumDeclaration(st)) names.push(st.name.text)
    else if (ts.isClassDeclaration(st) && st.name) names.push(st.name.text)
  }
  return names
}

describe('exported type names', () => {
  it('are unique across src', () => {
    const where = new Map<string, string[]>()
    for (const file of sources(SRC))
      for (const name of exportedTypes(file)) where.set(name, [...(where.get(name) ?? []), relative(ROOT, file)])
    const twice = [...where].filter(([, files]) => files.length > 1).map(([name, files]) => `${name}: ${files.join(', ')}`)
    expect(twice).toEqual([])
  })
})
