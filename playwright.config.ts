/**
 * End-to-end tests: Debian's Chromium against `muster serve` (built renderer + CLI), each test
 * with a fresh Muster home. Screenshots of every screen land in e2e/artifacts/ (ignored by git).
 */
import { availableParallelism } from 'node:os'
import { defineConfig } from '@playwright/test'

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  // sized for a busy 2-core laptop: a test that passes in 10 s alone can take several times that under load
  timeout: 120_000,
  expect: { timeout: 15_000 },
  // spec files two (or one per core, up to four) at a time, each test with its own `muster serve`
  // and home; a file's tests stay in order in one worker
  fullyParallel: false,
  workers: Math.max(2, Math.min(4, availableParallelism())),
  retries: 0,
  reporter: [['list']],
  use: {
    viewport: { width: 1600, height: 1000 },
    launchOptions: {
      executablePath: process.env.MUSTER_CHROMIUM ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run'
      ]
    }
  }
})
