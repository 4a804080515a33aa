// ESLint flat config. Besides TypeScript hygiene it enforces Muster's layering:
//  - src/core, src/shared, src/cli and src/server never import electron;
//  - src/shared imports neither Node nor Electron (the renderer uses it);
//  - src/renderer never imports Node built-ins, native modules, or the core/main/server layers;
//  - only src/main and src/preload touch electron, and the preload never exposes raw ipcRenderer;
//  - each folder of src/core is a domain with a public face (its index.ts): code outside a domain
//    imports only the face (rule muster/domain-faces, scripts/eslint/domain-faces.js); handlers,
//    CLI commands, the server and the main process import only a domain's face, never a stratum's
//    (core/hub/store, core/hub/open), so they reach MemPalace hubs only through the hub service;
//    nor SQLite itself;
//  - only the CLI reads hub token files (readTokenFile): never handlers, the server or main;
//  - only the git module (src/core/git), the editor launcher and the patch test runner (the
//    operator's own test command) start processes: every git call goes through core/git
//    (argument arrays, timeouts, clear errors);
//  - folders are created only through core/make-dir (never a raw mkdir);
//  - src/core never writes to stdout (`muster mcp` speaks JSON-RPC there): no console.log/info,
//    no process.stdout;
//  - role files, memory logs and decisions files (src/core/muse, src/core/notes) are written only
//    through safeEdit (src/core/muse/safe-write.ts): no direct file writes there.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import { builtinModules } from 'node:module'
import domainFaces from './scripts/eslint/domain-faces.js'

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)]
const noElectron = { name: 'electron', message: 'Only src/main and src/preload may import electron.' }
const nodeOnly = ['better-sqlite3', 'chokidar', 'commander']
const hubStorageMessage = "Reach MemPalace hubs through the hub service (core/hub's face), never the hub's SQLite or HTTP modules."
const noSqlite = { regex: '(^|/)core/sqlite$|^\\.\\./sqlite$', message: hubStorageMessage }
const noSqlitePackage = { name: 'better-sqlite3', message: hubStorageMessage }
// Token files are read only by the CLI (the operator's shell): an API caller must never make Muster
// read a file of its choosing and send it as a bearer token.
const noTokenFile = {
  regex: '(^|/)core/hub$|^\\.\\./hub$',
  importNames: ['readTokenFile'],
  message: 'Only the CLI reads token files: the API takes a pasted token, never a path.'
}
const processMessage =
  'Run git through the core git module (src/core/git/run.ts); any other process needs an exception in eslint.config.js.'
const noChildProcess = ['child_process', 'node:child_process'].map((name) => ({ name, message: processMessage }))
// File-writing calls (fs and fs/promises, sync or not); mkdir and reads stay allowed.
const noRawMkdir = ['callee.name', 'callee.property.name'].map((key) => ({
  selector: `CallExpression[${key}=/^mkdir(Sync)?$/]`,
  message: 'Create folders with makeDir/makeDirSync (src/core/make-dir.ts): bounded, with a clear error.'
}))
const fileWrites =
  '/^(writeFile|writeFileSync|appendFile|appendFileSync|rename|renameSync|truncate|truncateSync|copyFile|copyFileSync|createWriteStream|writev?|writevSync|writeSync)$/'

export default tseslint.config(
  {
    ignores: ['out/**', 'dist/**', 'node_modules/**', 'e2e/artifacts/**', 'test-results/**', 'playwright-report/**', '.electron-native/**']
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-imports': ['error', { paths: [noElectron, ...noChildProcess] }]
    }
  },
  {
    files: [
      'src/core/git/**/*.ts',
      'src/core/approvals/harness-version.ts',
      'src/core/approvals/gate-health.ts',
      'src/core/approvals/session-spawn.ts',
      'src/core/muse/open-in-editor.ts',
      'src/core/patches/test-run.ts',
      '**/*.test.ts',
      'test/**',
      'e2e/**',
      'bench/**'
    ],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron] }] }
  },
  {
    files: ['src/main/**/*.ts', 'src/preload/**/*.ts', 'scripts/**'],
    rules: { 'no-restricted-imports': 'off' }
  },
  {
    // the `muster` command is CommonJS: an answered `muster status` never starts the ES module loader
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' }
  },
  {
    files: ['src/cli/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [noElectron, noSqlitePackage, ...noChildProcess], patterns: [noSqlite] }]
    }
  },
  {
    files: ['src/core/handlers/**/*.ts', 'src/server/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [noElectron, noSqlitePackage, ...noChildProcess], patterns: [noSqlite, noTokenFile] }]
    }
  },
  {
    files: ['src/main/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noSqlitePackage, ...noChildProcess], patterns: [noTokenFile] }] }
  },
  {
    // Each folder of src/core is a domain: from outside, import only its face (index.ts); other
    // domains may also use a stratum's face (core/hub/store), the entries only the domain's face.
    files: ['src/**/*.ts'],
    ignores: ['**/*.test.ts', 'src/renderer/**'],
    plugins: { muster: { rules: { 'domain-faces': domainFaces } } },
    rules: { 'muster/domain-faces': ['error', { strata: true }] }
  },
  {
    files: ['src/core/handlers/**/*.ts', 'src/cli/**/*.ts', 'src/server/**/*.ts', 'src/main/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'muster/domain-faces': ['error', { strata: false }] }
  },
  {
    files: ['src/core/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-console': ['error', { allow: ['warn', 'error'] }],
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'stdout',
          message: 'src/core never writes to stdout (muster mcp speaks JSON-RPC there): return the text, let the CLI print it.'
        }
      ]
    }
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            noElectron,
            ...nodeBuiltins.map((name) => ({ name, message: 'src/shared is used by the renderer: no Node modules.' })),
            ...nodeOnly.map((name) => ({ name, message: 'src/shared must stay runtime-neutral.' }))
          ]
        }
      ]
    }
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'electron', message: 'The renderer talks to Muster only through the typed client (window.muster or HTTP).' },
            ...nodeBuiltins.map((name) => ({ name, message: 'The renderer never imports Node modules.' })),
            ...nodeOnly.map((name) => ({ name, message: 'The renderer never imports Node-only packages.' }))
          ],
          patterns: [
            {
              group: ['**/core/**', '**/main/**', '**/server/**', '**/cli/**', '**/preload/**'],
              message: 'The renderer may import only src/shared from outside src/renderer.'
            }
          ]
        }
      ]
    }
  },
  {
    files: ['src/preload/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.object.name='contextBridge'][callee.property.name='exposeInMainWorld'] > Identifier[name='ipcRenderer']",
          message: 'Never expose raw ipcRenderer: expose the typed client.'
        }
      ]
    }
  },
  {
    // Folders are created only by core/make-dir: Node's recursive mkdir spins forever on /proc.
    files: ['src/**/*.ts'],
    ignores: ['**/*.test.ts', 'src/core/make-dir.ts', 'src/preload/**', 'src/renderer/**'],
    rules: { 'no-restricted-syntax': ['error', ...noRawMkdir] }
  },
  {
    // A later no-restricted-syntax replaces the earlier one for the same files: keep the mkdir rule here too.
    files: ['src/core/muse/**/*.ts', 'src/core/notes/**/*.ts'],
    ignores: ['src/core/muse/safe-write*.ts', 'src/core/muse/write-leftovers.ts', '**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...noRawMkdir,
        {
          selector: `CallExpression:matches([callee.name=${fileWrites}], [callee.property.name=${fileWrites}])`,
          message:
            "Write role files, memory logs and decisions files through safeEdit (src/core/muse/safe-write.ts): it never loses an agent's write."
        }
      ]
    }
  },
  {
    files: ['**/*.test.ts', 'test/**', 'e2e/**', 'bench/**'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' }
  }
)
