/**
 * ESLint rule `muster/domain-faces`: each folder of src/core is a domain whose `index.ts` is its
 * public face; code outside a domain imports only that face (`../hub`, never `../hub/locate`).
 * A domain may have strata with faces of their own (`core/hub/store`, `core/hub/open`): other core
 * domains may import those (`{ strata: true }`), the entries (handlers, CLI, server, main) never:
 * they reach a domain through its one face. Files directly in src/core (the service, sqlite,
 * make-dir) are not domains. Decided by folder, not by a list of file names: a new file in a
 * domain is private until its face exports it.
 */
import { existsSync, statSync } from 'node:fs'
import { dirname, relative, resolve, sep } from 'node:path'

const isDir = (p) => existsSync(p) && statSync(p).isDirectory()

/** The domain folder (relative to src/core) holding `file`, or null when it is not in one. */
function domainOf(core, file) {
  const rel = relative(core, file)
  if (rel.startsWith('..')) return null
  const parts = rel.split(sep)
  return parts.length > 1 ? parts[0] : null
}

export default {
  meta: {
    type: 'problem',
    docs: { description: "Import a core domain only through its face (the folder's index.ts)" },
    schema: [{ type: 'object', properties: { strata: { type: 'boolean' } }, additionalProperties: false }],
    messages: {
      deep: "'{{spec}}' reaches inside the {{domain}} domain: import its face ('{{face}}') and export what you need there.",
      stratum:
        "'{{spec}}' is a stratum of the {{domain}} domain: handlers, the CLI, the server and main import only the domain's face ('{{face}}')."
    }
  },
  create(context) {
    const strata = context.options[0]?.strata ?? false
    const file = context.physicalFilename ?? context.filename
    const src = file.lastIndexOf(`${sep}src${sep}`)
    if (src < 0) return {}
    const core = file.slice(0, src) + `${sep}src${sep}core`
    const mine = domainOf(core, file)
    function check(node, source) {
      if (!source || typeof source.value !== 'string' || !source.value.startsWith('.')) return
      const spec = source.value
      const target = resolve(dirname(file), spec)
        .replace(/\.(ts|tsx|js|mjs)$/, '')
        .replace(/[/\\]index$/, '')
      const domain = domainOf(core, target + sep + 'x')
      if (!domain || domain === mine) return
      const inside = relative(resolve(core, domain), target).split(sep).filter(Boolean)
      if (inside.length === 0) return
      let face = relative(dirname(file), resolve(core, domain))
      if (!face.startsWith('.')) face = `./${face}`
      face = face.split(sep).join('/')
      if (inside.length === 1 && isDir(target)) {
        if (strata) return
        context.report({ node: source, messageId: 'stratum', data: { spec, domain, face } })
        return
      }
      context.report({ node: source, messageId: 'deep', data: { spec, domain, face } })
    }
    return {
      ImportDeclaration: (n) => check(n, n.source),
      ExportNamedDeclaration: (n) => check(n, n.source),
      ExportAllDeclaration: (n) => check(n, n.source),
      ImportExpression: (n) => check(n, n.source)
    }
  }
}
