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
      "import { createService } from '../../core/service'\nexport const a = createService\n"
    ]
    for (const code of cases) expect(await rulesFor('src/renderer/src/x.ts', code)).toContain('no-restricted-imports')
  })

  it('shared may not import Node modules', async () => {
    expect(await rulesFor('src/shared/x.ts', "import { join } from 'node:path'\nexport const a = join\n")).toContain(
      'no-restricted-imports'
    )
  })

  it('handlers, CLI commands, the server and main reach hubs only through the hub service, never SQLite', async () => {
    const importing = (spec: string, name = 'x'): string => `import { ${name} } from '${spec}'\nexport const a = ${name}\n`
    const cases: [file: string, storage: string[], service: string][] = [
      [
        'src/core/handlers/x.ts',
        ['../hub/reader', '../hub/writer', '../hub/hub-connection', '../hub/schema', '../hub/local-hub', '../sqlite'],
        '../hub/hub-service'
      ],
      [
        'src/cli/commands/x.ts',
        ['../../core/hub/reader', '../../core/hub/thread', '../../core/hub/wait', '../../core/sqlite'],
        '../../core/hub/hub-service'
      ],
      ['src/server/x.ts', ['../core/hub/tasks', '../core/hub/event-query', '../core/sqlite'], '../core/hub/hub-service'],
      ['src/main/x.ts', ['../core/hub/inbox', '../core/hub/overview'], '../core/hub/hub-service']
    ]
    for (const [file, storage, service] of cases) {
      for (const spec of [...storage, 'better-sqlite3'])
        expect(await rulesFor(file, importing(spec)), `${file} importing ${spec}`).toContain('no-restricted-imports')
      expect(await rulesFor(file, importing(service, 'HubService'))).toEqual([])
      expect(await rulesFor(file, importing(service.replace('hub-service', 'locate'), 'resolvePalace'))).toEqual([])
    }
    // The local implementation itself may, and tests may set up hub files directly.
    expect(await rulesFor('src/core/hub/local-hub.ts', importing('./reader', 'listOn'))).toEqual([])
    expect(await rulesFor('src/core/handlers/x.test.ts', importing('../hub/writer', 'appendEvent'))).toEqual([])
    // The electron rule still holds where the hub rule replaced the defaults.
    expect(await rulesFor('src/cli/x.ts', "import { app } from 'electron'\nexport const a = app\n")).toContain('no-restricted-imports')
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
