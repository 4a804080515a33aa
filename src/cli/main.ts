/** Process entry of the `muster` binary. */
import { runCli } from './index'

runCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  (err: unknown) => {
    process.stderr.write(`muster: ${err instanceof Error ? err.message : String(err)}\n`)
    process.exitCode = 1
  }
)
