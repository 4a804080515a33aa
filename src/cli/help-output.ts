/**
 * Where commander writes the CLI's help and version (through the CLI's io), and what it asks
 * about the terminal (the help's width, colours) answered without setting up the process's
 * stdout or stderr stream when the descriptor is no terminal: `process.stdout` loads node:stream
 * (and node:net for a pipe), ~2 ms of a `muster --help` that is printed into a pipe or a file.
 * When the descriptor may be a terminal, commander's own answer is used, so the help is the same
 * text commander would print either way.
 */
import { fstatSync, statSync } from 'node:fs'
import type { Command, OutputConfiguration } from 'commander'
import type { CliIo } from './output'

/** Whether descriptor `fd` may be a terminal: a file, a pipe, a socket or the null device is not. */
export function mayBeTerminal(fd: 1 | 2): boolean {
  if (process.platform === 'win32') return true
  try {
    const s = fstatSync(fd)
    return s.isCharacterDevice() && s.rdev !== statSync('/dev/null').rdev
  } catch {
    return true
  }
}

/** True when the environment sets one of the variables commander reads for colours. */
function colourEnv(env: NodeJS.ProcessEnv): boolean {
  return env.NO_COLOR !== undefined || env.FORCE_COLOR !== undefined || env.CLICOLOR_FORCE !== undefined
}

/**
 * The output settings for `cmd` (commander's own for what is not set here): help and version to
 * `io.stdout`, errors nowhere (runCli reports them), and the terminal queries above. For a
 * descriptor that is no terminal, commander answers no width (its 80 columns then), and colours
 * only from the environment (`useColor() ?? stream.isTTY`, falsy there): the same answers.
 */
export function helpOutput(cmd: Command, io: CliIo): OutputConfiguration {
  const own = cmd.configureOutput()
  return {
    writeOut: (s) => io.stdout(s),
    writeErr: () => undefined,
    // commander's own answer is `undefined` (no width) for a stream that is no terminal
    getOutHelpWidth: () => (mayBeTerminal(1) ? own.getOutHelpWidth!() : (undefined as unknown as number)),
    getErrHelpWidth: () => (mayBeTerminal(2) ? own.getErrHelpWidth!() : (undefined as unknown as number)),
    getOutHasColors: () => (mayBeTerminal(1) || colourEnv(process.env) ? own.getOutHasColors!() : false),
    getErrHasColors: () => (mayBeTerminal(2) || colourEnv(process.env) ? own.getErrHasColors!() : false)
  }
}
