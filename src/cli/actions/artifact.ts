/**
 * `muster artifact put|get` at work (upstream cli/cmd_coord.py `cmd_artifact`): `put` stores the
 * exact content (`--content`, `--file F`, `-` or, by default, stdin) and prints the stored record
 * (`--json`) or `Stored ID  kind=K` with its sha256 and size, then each patch warning as
 * `Warning: ...` on stderr in both modes; `get` writes the exact bytes to stdout (or `--out`,
 * then `Wrote N bytes to F`), `--json` the record with `content` (or `content_written_to`).
 * Muster's addition: `get` exits 1 when the bytes no longer match the stored sha256 or size.
 */
import { writeFile } from 'node:fs/promises'
import { isAbsolute, resolve } from 'node:path'
import type { Command } from 'commander'
import { artifactIntegrity, userHome } from '../../core/hub'
import { pyOsErrorText } from '../../core/text'
import { globals } from '../context'
import { metadataArg } from '../metadata-arg'
import { CliExit, type CliIo } from '../output'
import { readTextArg, readTextFile } from '../read-text'
import { printUpstreamJson } from '../upstream-output'
import { withHub, withUpstreamHub } from './hub-cli'

/** `artifact put --kind K --created-by A [--content C | --file F] [--metadata JSON]`. */
export async function put(
  io: CliIo,
  o: { kind: string; createdBy: string; content?: string; file?: string; metadata?: string },
  cmd: Command
): Promise<void> {
  const content = o.content === undefined && o.file === undefined ? await readTextFile(io, '-') : await readTextArg(io, o.content, o.file)
  const metadata = metadataArg(o.metadata)
  const { artifact } = await withHub(cmd, io, (hubs, sel) =>
    hubs.putArtifact({ ...sel, kind: o.kind, content, created_by: o.createdBy, metadata })
  )
  const { warnings = [], ...record } = artifact
  if (globals(cmd).json) printUpstreamJson(io, warnings.length ? artifact : record)
  else io.stdout(`Stored ${record.id}  kind=${record.kind}\n  sha256=${record.sha256}\n  size=${record.size_bytes} bytes\n`)
  // On stderr in both modes, as upstream: `--json | jq` stays clean, a person still sees them.
  for (const w of warnings) io.stderr(`Warning: ${w}\n`)
}

/** `artifact get ID [--out FILE]`. */
export async function get(io: CliIo, id: string, o: { out?: string }, cmd: Command): Promise<void> {
  const art = await withUpstreamHub(cmd, io, (hubs, sel) => hubs.storedArtifact({ ...sel, id }))
  if (o.out !== undefined) {
    const path = o.out === '~' || o.out.startsWith('~/') ? userHome(io.env) + o.out.slice(1) : o.out
    try {
      // the bytes, never re-encoded: the file must match the sha256 the reader is told to verify
      await writeFile(isAbsolute(path) ? path : resolve(io.cwd, path), Buffer.from(art.content, 'utf8'))
    } catch (err) {
      throw new Error(pyOsErrorText(err, path))
    }
  }
  // upstream get_artifact's record, in its key order (metadata_json rides along for the exact printing)
  const { content, metadata, metadata_json, ...rest } = art
  const record = {
    id: rest.id,
    kind: rest.kind,
    sha256: rest.sha256,
    size_bytes: rest.size_bytes,
    content,
    created_by: rest.created_by,
    created_at: rest.created_at,
    origin_replica: rest.origin_replica,
    metadata,
    ...(metadata_json !== undefined ? { metadata_json } : {})
  }
  if (globals(cmd).json) {
    const { content: _c, ...written } = record
    printUpstreamJson(io, o.out !== undefined ? { ...written, content_written_to: o.out } : record)
  } else if (o.out !== undefined) io.stdout(`Wrote ${art.size_bytes} bytes to ${o.out}\n  sha256=${art.sha256}\n`)
  else io.stdout(content)
  const integrity = artifactIntegrity({ ...art, content })
  const what = !integrity.sha256Ok ? 'sha256' : !integrity.sizeOk ? 'size' : null
  if (what) {
    io.stderr(`muster: artifact ${id} does not match its stored ${what}: its content was changed after it was stored\n`)
    throw new CliExit(1)
  }
}
