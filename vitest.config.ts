/** Unit and integration tests (core, bindings, CLI). Browser tests live in e2e/ (Playwright). */
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks'
  }
})
