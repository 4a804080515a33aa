/** Process entry of the `muster` binary (bundled as `out/cli/muster.cjs`, required by `bin/muster.cjs`). */
import { runCli } from './index'
import { processIo, writeStdout, type CliIo } from './output'

/** A reader that went away (`muster events list | head -2`) ends the output: quietly, no stack. */
function onStreamError(err: NodeJS.ErrnoException): void {
  if (err.code === 'EPIPE') process.exit(0)
  throw err
}

let stderrWatched = false

/**
 * The process's io. stdout is written with blocking writes to its descriptor, as Node writes to a
 * file, a pipe or a terminal on POSIX anyway, without setting up the stdout stream (it loads
 * node:stream, and node:net for a pipe: ~2 ms of every run); stderr's stream is set up on first use.
 */
function cliIo(): CliIo {
  return {
    ...processIo(),
    stdout: (text) => {
      if (!writeStdout(text)) process.exit(0)
    },
    stderr: (text) => {
      if (!stderrWatched) {
        stderrWatched = true
        process.stderr.on('error', onStreamError)
      }
      process.stderr.write(text)
    }
  }
}

runCli(process.argv.slice(2), cliIo()).then(
  (code) => {
    process.exitCode = code
  },
  (err: unknown) => {
    process.stderr.write(`muster: ${err instanceof Error ? err.message : String(err)}\n`)
    process.exitCode = 1
  }
)
