/** Process entry of the `muster` binary. */
import { runCli } from './index'

// A reader that went away (`muster events list | head -2`) ends the output: quietly, no stack
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0)
    throw err
  })
}

runCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  (err: unknown) => {
    process.stderr.write(`muster: ${err instanceof Error ? err.message : String(err)}\n`)
    process.exitCode = 1
  }
)
