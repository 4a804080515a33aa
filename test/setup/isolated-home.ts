/**
 * Every test worker runs with a user home of its own: the machine's real `~/.mempalace` (a default
 * hub, MemPalace's config, watch state) and `~/.muster` never show up in a test, and no test writes
 * there. Tests that want a default palace set `HOME` or `MEMPALACE_PALACE_PATH` themselves.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const home = mkdtempSync(join(tmpdir(), 'muster-test-home-'))
process.env.HOME = home
process.env.USERPROFILE = home
delete process.env.MEMPALACE_PALACE_PATH
delete process.env.MEMPAL_PALACE_PATH
delete process.env.MUSTER_HOME
