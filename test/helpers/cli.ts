/** Runs the CLI in process, as a test drives it. */
import { runCli } from '../../src/cli/index'

/** Runs `muster ARGS --home HOME` in process: exit code and everything it printed. */
export async function runCliIn(home: string, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = ''
  let err = ''
  const code = await runCli([...args, '--home', home], {
    stdout: (t) => (out += t),
    stderr: (t) => (err += t),
    env: {},
    cwd: process.cwd()
  })
  return { code, out, err }
}
