/**
 * The hook JSON schemas the installed Codex CLI ships inside its binary (`.cache/codex`, filled by
 * `.ci/run`): each a draft-07 document titled `<event>.command.input|output`. Tests read Codex's
 * own contract from the release they run against instead of a copy that could go stale.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

const ROOT = join(import.meta.dirname, '..', '..')
const PLATFORM_PKG: Record<string, string> = {
  'linux-x64': 'codex-linux-x64/vendor/x86_64-unknown-linux-musl',
  'linux-arm64': 'codex-linux-arm64/vendor/aarch64-unknown-linux-musl',
  'darwin-arm64': 'codex-darwin-arm64/vendor/aarch64-apple-darwin',
  'darwin-x64': 'codex-darwin-x64/vendor/x86_64-apple-darwin'
}

/** The installed Codex binary, or null (not installed, or no build for this platform). */
export function codexBinary(): string | null {
  const dir = PLATFORM_PKG[`${process.platform}-${process.arch}`]
  if (!dir) return null
  const file = join(ROOT, '.cache', 'codex', 'node_modules', '@openai', dir, 'bin', 'codex')
  return existsSync(file) ? file : null
}

/** A JSON schema document (only what the tests read). */
export interface JsonSchema {
  title?: string
  description?: string
  type?: string
  properties?: Record<string, JsonSchema | boolean>
  additionalProperties?: boolean
  required?: string[]
  definitions?: Record<string, JsonSchema>
  allOf?: JsonSchema[]
  $ref?: string
  const?: unknown
  enum?: unknown[]
}

/** The schema titled `title` in the binary at `file`, or null when it has none. */
export function codexSchema(file: string, title: string): JsonSchema | null {
  const data = readFileSync(file)
  const at = data.indexOf(`"title": "${title}"`)
  if (at < 0) return null
  const start = data.lastIndexOf('{\n  "$schema"', at)
  if (start < 0) return null
  let depth = 0
  for (let i = start; i < data.length; i++) {
    const c = data[i]
    if (c === 0x7b) depth++
    else if (c === 0x7d && --depth === 0) return JSON.parse(data.subarray(start, i + 1).toString('utf8')) as JsonSchema
  }
  return null
}

/** A `$ref` (or an `allOf` of one) resolved against the document's definitions. */
export function resolveRef(doc: JsonSchema, s: JsonSchema | boolean | undefined): JsonSchema | null {
  if (!s || typeof s === 'boolean') return null
  const ref = s.$ref ?? s.allOf?.[0]?.$ref
  if (!ref) return s
  return doc.definitions?.[ref.replace('#/definitions/', '')] ?? null
}
