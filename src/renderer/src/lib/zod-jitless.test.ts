/** The renderer turns zod's eval fast path off without importing zod (see zod-jitless.ts). */
import { expect, it } from 'vitest'

it('zod loaded after zod-jitless runs jitless', async () => {
  const g = globalThis as { __zod_globalConfig?: Record<string, unknown> }
  delete g.__zod_globalConfig
  await import('./zod-jitless')
  const { config } = await import('zod')
  expect(config().jitless).toBe(true)
})
