#!/usr/bin/env node
// The `muster` command: runs the bundled CLI (built by `npm run build`).
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const entry = new URL('../out/cli/muster.mjs', import.meta.url)
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('muster: the CLI is not built yet; run `npm run build` (or `npm install`) first\n')
  process.exit(1)
}
await import(entry.href)
