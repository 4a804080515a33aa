/** A renaming agent, as the safe-write tests stage it inside one of safeEdit's windows. */
import { renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** A window hook that, the first time it runs, renames a whole version `text` over the file (temp file in `dir` + rename). */
export function renameOnce(dir: string, text: string): (path: string) => void {
  let fired = false
  return (path) => {
    if (fired) return
    fired = true
    writeFileSync(join(dir, 'agent.tmp'), text)
    renameSync(join(dir, 'agent.tmp'), path)
  }
}
