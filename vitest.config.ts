/** Unit and integration tests (core, bindings, CLI). Browser tests live in e2e/ (Playwright). */
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // one line per run when the upstream-file suites are skipped (no ../shared beside the repo)
    globalSetup: ['test/setup/upstream-notice.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks'
  }
})
