import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

const eslint = new ESLint({ cwd: new URL('..', import.meta.url).pathname })

/** Lints `code` as if it lived at `filePath` and returns the rule ids that fired. */
async function rulesFor(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath })
  return result!.messages.map((m) => m.ruleId ?? m.message)
}

describe('lint enforces the layering', () => {
  it('core, shared, cli and server may not import electron', async () => {
    for (const file of ['src/core/x.ts', 'src/shared/x.ts', 'src/cli/x.ts', 'src/server/x.ts']) {
      expect(await rulesFor(file, "import { app } from 'electron'\nexport const a = app\n")).toContain('no-restricted-imports')
    }
  })

  it('main and preload may import electron', async () => {
    expect(await rulesFor('src/main/x.ts', "import { app } from 'electron'\nexport const a = app\n")).toEqual([])
  })

  it('the renderer may not import Node modules, native packages or the core', async () => {
    const cases = [
      "import { readFileSync } from 'node:fs'\nexport const a = readFileSync\n",
      "import { join } from 'path'\nexport const a = join\n",
      "import Database from 'better-sqlite3'\nexport const a = Database\n",
      "import { createService } from '../../core/root'\nexport const a = createService\n"
    ]
    for (const code of cases) expect(await rulesFor('src/renderer/src/x.ts', code)).toContain('no-restricted-imports')
  })

  it('shared may not import Node modules', async () => {
    expect(await rulesFor('src/shared/x.ts', "import { join } from 'node:path'\nexport const a = join\n")).toContain(
      'no-restricted-imports'
    )
  })

  const importing = (spec: string, name = 'x'): string => `import { ${name} } from '${spec}'\nexport const a = ${name}\n`

  it('code outside a core domain imports only its face (index.ts), decided by folder', async () => {
    const cases: [file: string, deep: string[], face: string][] = [
      ['src/core/patches/x.ts', ['../muse/parse-role', '../hub/hub-service', '../fleet/registry', '../hub/any-new-file'], '../muse'],
      ['src/core/x.ts', ['./fleet/registry', './hub/locate', './root/hook'], './fleet'],
      ['src/core/hub/store/x.ts', ['../../text/py-repr', '../../git/run'], '../../text'],
      ['src/cli/actions/x.ts', ['../../core/muse/send', '../../core/approvals/hook-install'], '../../core/muse'],
      ['src/main/x.ts', ['../core/fleet/home'], '../core/fleet']
    ]
    for (const [file, deep, face] of cases) {
      for (const spec of deep) expect(await rulesFor(file, importing(spec)), `${file} importing ${spec}`).toContain('muster/domain-faces')
      expect(await rulesFor(file, importing(face)), `${file} importing ${face}`).toEqual([])
      expect(await rulesFor(file, importing(`${face}/index`)), `${file} importing ${face}/index`).toEqual([])
    }
    // dynamic imports and re-exports count too
    const dynamic = "export const a = () => import('../hub/open/open-hub')\n"
    expect(await rulesFor('src/core/approvals/x.ts', dynamic)).toContain('muster/domain-faces')
    expect(await rulesFor('src/core/approvals/x.ts', "export { openHub } from '../hub/open/open-hub'\n")).toContain('muster/domain-faces')
    // inside a domain, any file; tests may reach internals to set things up
    expect(await rulesFor('src/core/hub/local/x.ts', importing('../store/reader', 'listOn'))).toEqual([])
    expect(await rulesFor('src/core/hub/hub-service.ts', importing('./open/open-hubs', 'openHubs'))).toEqual([])
    expect(await rulesFor('src/core/handlers/x.test.ts', importing('../hub/store/writer', 'appendEvent'))).toEqual([])
  })

  it('a core domain may use a stratum face (core/hub/store, core/hub/open), the entries only the domain face', async () => {
    for (const file of ['src/core/approvals/x.ts', 'src/core/demo/x.ts'])
      for (const spec of ['../hub/open', '../hub/store'])
        expect(await rulesFor(file, importing(spec)), `${file} importing ${spec}`).toEqual([])
    const entries: [file: string, up: string][] = [
      ['src/core/handlers/x.ts', '..'],
      ['src/cli/actions/x.ts', '../../core'],
      ['src/server/x.ts', '../core'],
      ['src/main/x.ts', '../core']
    ]
    for (const [file, up] of entries) {
      for (const inner of [
        'hub/open',
        'hub/open/open-hub',
        'hub/store',
        'hub/store/writer',
        'hub/local/local-hub',
        'hub/remote/remote-hub'
      ]) {
        expect(await rulesFor(file, importing(`${up}/${inner}`)), `${file} importing ${inner}`).toContain('muster/domain-faces')
      }
      expect(await rulesFor(file, importing(`${up}/hub`, 'HubService')), file).toEqual([])
    }
  })

  it('handlers, CLI commands and the server never open SQLite themselves', async () => {
    for (const [file, sqlite] of [
      ['src/core/handlers/x.ts', '../sqlite'],
      ['src/cli/commands/x.ts', '../../core/sqlite'],
      ['src/server/x.ts', '../core/sqlite']
    ] as const) {
      expect(await rulesFor(file, importing(sqlite)), `${file} importing ${sqlite}`).toContain('no-restricted-imports')
      expect(await rulesFor(file, importing('better-sqlite3')), `${file} importing better-sqlite3`).toContain('no-restricted-imports')
    }
    expect(await rulesFor('src/main/x.ts', importing('better-sqlite3'))).toContain('no-restricted-imports')
    // The electron rule still holds where the hub rule replaced the defaults.
    expect(await rulesFor('src/cli/x.ts', "import { app } from 'electron'\nexport const a = app\n")).toContain('no-restricted-imports')
  })

  it('only the CLI reads hub token files', async () => {
    for (const [file, hub] of [
      ['src/core/handlers/x.ts', '../hub'],
      ['src/server/x.ts', '../core/hub'],
      ['src/main/x.ts', '../core/hub']
    ] as const)
      expect(await rulesFor(file, importing(hub, 'readTokenFile')), file).toContain('no-restricted-imports')
    expect(await rulesFor('src/cli/actions/x.ts', importing('../../core/hub', 'readTokenFile'))).toEqual([])
  })

  it('only the git module (and the editor launcher) start processes: git runs through core/git', async () => {
    const code = "import { execFile } from 'node:child_process'\nexport const a = execFile\n"
    for (const file of [
      'src/core/muse/x.ts',
      'src/core/notes/x.ts',
      'src/core/handlers/x.ts',
      'src/cli/commands/x.ts',
      'src/server/x.ts',
      'src/main/x.ts'
    ]) {
      expect(await rulesFor(file, code), file).toContain('no-restricted-imports')
    }
    for (const file of ['src/core/git/run.ts', 'src/core/muse/open-in-editor.ts', 'src/core/notes/x.test.ts', 'test/helpers/x.ts']) {
      expect(await rulesFor(file, code), file).toEqual([])
    }
  })

  it('role files, memory logs and decisions files are written only through safeEdit', async () => {
    const writes = [
      "import { promises as fs } from 'node:fs'\nexport const a = () => fs.writeFile('x.md', 'y')\n",
      "import { appendFileSync } from 'node:fs'\nexport const a = () => appendFileSync('x.md', 'y')\n",
      "import { rename } from 'node:fs/promises'\nexport const a = () => rename('a', 'x.md')\n"
    ]
    for (const file of ['src/core/muse/x.ts', 'src/core/notes/x.ts']) {
      for (const code of writes) expect(await rulesFor(file, code), `${file}: ${code}`).toContain('no-restricted-syntax')
    }
    for (const file of ['src/core/muse/safe-write-swap.ts', 'src/core/muse/x.test.ts', 'src/core/fleet/x.ts'])
      expect(await rulesFor(file, writes[0]!), file).toEqual([])
    expect(
      await rulesFor('src/core/muse/x.ts', "import { promises as fs } from 'node:fs'\nexport const a = () => fs.readFile('x.md')\n")
    ).toEqual([])
  })

  it('the preload may not expose raw ipcRenderer', async () => {
    const code = "import { contextBridge, ipcRenderer } from 'electron'\ncontextBridge.exposeInMainWorld('x', ipcRenderer)\n"
    expect(await rulesFor('src/preload/x.ts', code)).toContain('no-restricted-syntax')
  })
})
