/** Unit and integration tests (core, bindings, CLI). Browser tests live in e2e/ (Playwright). */
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // one line per run when the upstream-file suites are skipped (no ../shared beside the repo)
    globalSetup: ['test/setup/upstream-notice.ts', 'test/setup/built-cli.ts'],
    // a user home per worker: the machine's own ~/.mempalace and ~/.muster stay out of every test
    setupFiles: ['test/setup/isolated-home.ts'],
    environment: 'node',
    // sized for a busy 2-core laptop: a test that passes in 5 s alone can take several times that
    // under load; how fast things are is `npm run bench`'s job, never a test's
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks'
  }
})
