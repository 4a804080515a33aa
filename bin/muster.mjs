#!/usr/bin/env node
// The `muster` command as it was first installed (agents' hooks may still run this path): the
// same as bin/muster.cjs, whose `main` it calls (loaded from here, that file is not the main module,
// so it does not run itself).
import { createRequire } from 'node:module'

createRequire(import.meta.url)('./muster.cjs').main(process.argv.slice(2))
