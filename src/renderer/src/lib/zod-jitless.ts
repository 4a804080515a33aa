/**
 * Zod without its eval-based fast path in the renderer. Imported first by `main.tsx`: zod decides
 * when each object schema is built whether it may compile a parser with `new Function`, and its
 * probe is refused by the CSP (`script-src 'self'`, no `'unsafe-eval'`), which the browser
 * reports as a violation on every page. The contract's schemas are small; interpreted parsing
 * costs nothing the operator could notice.
 */
import { config } from 'zod'

config({ jitless: true })
