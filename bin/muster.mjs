#!/usr/bin/env node
// The `muster` command as it was first installed (agents' hooks may still run this path): the
// same as bin/muster.cjs, which it runs.
import { createRequire } from 'node:module'

createRequire(import.meta.url)('./muster.cjs')
