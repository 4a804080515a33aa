/** Unit and integration tests (core, bindings, CLI). Browser tests live in e2e/ (Playwright). */
import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // one line per run when the upstream-file suites are skipped (no ../shared beside the repo)
    globalSetup: ['test/setup/upstream-notice.ts', 'test/setup/built-cli.ts'],
    // a user home per worker: the machine's own ~/.mempalace and ~/.muster stay out of every test
    setupFiles: ['test/setup/isolated-home.ts'],
    environment: 'node',
    // sized for a busy 2-core laptop: a test that passes in 5 s alone can take several times that
    // under load; how fast things are is `npm run bench`'s job, never a test's
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // one test file per core, and at least two: most files spend much of their time waiting on child
    // processes (the built CLI, git, Python writers, hub servers), so on 2 cores two files at once
    // took 242 s where one at a time took 392 s for the same CPU time (30 slowest files, one loaded
    // machine); vitest's own default, cores - 1, is a single file at a time there
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: ['test/stress/**', 'node_modules/**'],
          sequence: { groupOrder: 0 }
        }
      },
      // the zero-loss stress suites make their own contention (agent and reader processes racing
      // Muster's edits); they run after the rest, one file at a time, so an unrelated file's load
      // (the chaos test's servers, the built CLI) does not stretch their races past what they model
      {
        extends: true,
        test: { name: 'stress', include: ['test/stress/**/*.test.ts'], maxWorkers: 1, sequence: { groupOrder: 1 } }
      }
    ]
  }
})
