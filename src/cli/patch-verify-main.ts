/**
 * The fast path of `muster patch verify ID` (bundled alone, as CommonJS, into
 * `out/cli/patch-verify.cjs`; bin/muster.cjs offers it a `patch verify` call first): the same
 * action as the CLI's, without loading commander, the command definitions or the ES module loader.
 * A call it does not read as plain (see patch-verify-flags.ts) is left whole to the CLI; errors
 * are printed as the CLI prints them. Both streams are written with blocking writes (directIo), so
 * the process exits as soon as the answer is out.
 */
import type { Command } from 'commander'
import { verify } from './actions/patch'
import { parsePatchVerifyArgv } from './commands/patch-verify-flags'
import { CliError, CliExit, directIo, errorText, fail, type CliIo } from './output'

/** Runs a plain `patch verify` call in `argv` (the words after `muster`) and gives its exit code, or null to leave it to the CLI. */
export async function answerVerify(argv: readonly string[], io: CliIo = directIo()): Promise<number | null> {
  const args = parsePatchVerifyArgv(argv)
  if (!args) return null
  const { id, project, hub, ...globals } = args
  // what the action reads of its commander command: its own options and the global ones
  const cmd = { opts: () => ({ project, hub }), optsWithGlobals: () => ({ ...globals, project, hub }) } as unknown as Command
  try {
    await verify(io, id, { project }, cmd)
    return 0
  } catch (err) {
    if (err instanceof CliExit) return err.exitCode
    if (err instanceof CliError) return fail(io, args.json, errorText(err), err.exitCode)
    return fail(io, args.json, errorText(err), 1)
  }
}
