/** Events written into a hub by another process, MemPalace's way (test/hub_writer.py). */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dirname, '..')

/** Runs test/hub_writer.py on the hub at `palace` with `steps` (`{ event }` and the writer's other steps); returns the new events' ids. */
export function pythonAppend(palace: string, steps: unknown[]): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'muster-writer-'))
  try {
    const script = join(dir, 'script.json')
    writeFileSync(script, JSON.stringify(steps))
    return JSON.parse(execFileSync('python3', [join(ROOT, 'test', 'hub_writer.py'), palace, script], { encoding: 'utf8' })) as string[]
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
