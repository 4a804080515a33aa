/**
 * Zod without its eval-based fast path in the renderer. Imported first by `main.tsx`: zod decides
 * when each object schema is built whether it may compile a parser with `new Function`, and its
 * probe is refused by the CSP (`script-src 'self'`, no `'unsafe-eval'`), which the browser
 * reports as a violation on every page. The contract's schemas are small; interpreted parsing
 * costs nothing the operator could notice.
 *
 * Zod keeps its configuration on `globalThis.__zod_globalConfig` and merges into what it finds
 * there, so the flag is set without loading zod: the contract and zod load after the first paint
 * (`zod-jitless.test.ts` checks that zod reads it).
 */
const g = globalThis as { __zod_globalConfig?: Record<string, unknown> }
g.__zod_globalConfig = { ...g.__zod_globalConfig, jitless: true }

export {}
