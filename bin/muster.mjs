#!/usr/bin/env node
// The `muster` command: runs the bundled CLI (built by `npm run build`). A hook call
// (`muster [--home D] [--palace P] approve-hook ...`, not `install`, not `--help`) goes straight
// to its own small entry: it starts on every tool call of every agent.
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** True when argv is a hook call: global options, then `approve-hook` without a subcommand or help. */
function isHookCall(args) {
  let i = 0
  while (i < args.length && args[i] !== 'approve-hook') {
    const a = args[i]
    if (a === '--home' || a === '--palace') i += 2
    else if (a === '--json' || a.startsWith('--home=') || a.startsWith('--palace=')) i += 1
    else return false
  }
  return i < args.length && args[i + 1] !== 'install' && !args.includes('--help') && !args.includes('-h')
}

const name = isHookCall(process.argv.slice(2)) ? 'approve-hook' : 'muster'
const entry = new URL(`../out/cli/${name}.mjs`, import.meta.url)
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('muster: the CLI is not built yet; run `npm run build` (or `npm install`) first\n')
  process.exit(1)
}
await import(entry.href)
