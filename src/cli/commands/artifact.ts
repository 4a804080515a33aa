/**
 * `muster artifact put|get`: a twin of `mempalace artifact` (upstream cli/parser.py and
 * cli/cmd_coord.py `cmd_artifact`): exact content in and out, the same flags, `--json` documents,
 * `Warning: ...` lines on stderr and exit codes (validation errors 1, usage errors 2). Muster adds
 * `--hub NAME|URL`, and `get` exits 1 when the stored bytes no longer match their sha256.
 */
import type { Command } from 'commander'
import { lazyAction, lazySubcommands } from '../lazy'
import type { CliIo } from '../output'
import { argparseStyle } from '../usage'

/** Registers the `artifact` command group. */
export function registerArtifact(program: Command, io: CliIo): void {
  const actions = () => import('../actions/artifact')
  const artifact = argparseStyle(
    program.command('artifact').description("exact artifact exchange for agent handoffs (a hub's artifacts, byte for byte)")
  )
  lazySubcommands(artifact, (artifact) => {
    artifact
      .command('put')
      .description('store exact artifact content (patch warnings on stderr)')
      .requiredOption('--kind <kind>', 'patch|file|log|json|note')
      .requiredOption('--created-by <agent>', 'writer agent identity')
      .option('--content <text>', 'inline content')
      .option('--file <file>', "read content from file ('-' for stdin; default stdin)")
      .option('--metadata <json>', 'extra fields as a JSON object')
      .option('--hub <name>', 'a registered hub (Muster)')
      .action(lazyAction(io, actions, 'put'))
    artifact
      .command('get')
      .description('fetch exact artifact content (stdout pipes into git apply; exit 1 when it no longer matches its sha256)')
      .argument('<artifact_id>', 'artifact id')
      .option('--out <file>', 'write content to this file instead')
      .option('--hub <name>', 'a registered hub (Muster)')
      .action(lazyAction(io, actions, 'get'))
  })
}
