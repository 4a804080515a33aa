/**
 * Verifying a patch before anything touches a working tree (spec/hub-logstream.md section 5):
 * the sha256 recomputed over the artifact's exact bytes against the stored one, the byte size,
 * every sha the sender quoted, upstream's two warnings (word for word, from the hub validator),
 * and Muster's own findings: binary content, paths leaving the repository, files missing at the
 * base commit, a patch over 4 MiB. An `error` finding refuses the apply.
 */
import { EventType } from '../../shared/contract/hub-vocabulary'
import type { HubEvent, PatchFinding, Verification } from '../../shared/api'
import { catFileCheck } from '../git'
import { type StoredArtifact, MAX_ARTIFACT_BYTES, artifactIntegrity, patchWarnings } from '../hub'
import { parsePatch, type ParsedPatch } from './diff-files'
import { compareClaims, findShaClaims } from './quoted-sha'

/** The repository base-commit checks run in. */
export interface VerifyRepo {
  project: string
  path: string
}

/** What verification needs: the event, its artifacts (null where the hub has none) and maybe a repository. */
export interface VerifyInput {
  event: HubEvent
  /** Aligned with `event.artifact_ids`. */
  artifacts: (StoredArtifact | null)[]
  repo?: VerifyRepo | null
  now?: Date
}

/** A verification plus the patch it judged: the artifact and its exact bytes (null when absent). */
export interface VerifiedPatch {
  verification: Verification
  artifact: StoredArtifact | null
  bytes: Buffer | null
  parsed: ParsedPatch | null
}

/** Why a patch path would leave the repository, or null when it stays inside. */
export function pathEscape(path: string): string | null {
  if (path === '') return 'an empty path'
  if (path.startsWith('/') || path.startsWith('\\') || /^[A-Za-z]:/.test(path)) return 'an absolute path'
  const segments = path.split(/[\\/]/)
  if (segments.includes('..')) return "a '..' segment"
  if (segments.some((s) => s.toLowerCase() === '.git')) return 'the .git folder'
  return null
}

/** Why a link at `path` pointing to `target` leads outside the repository, or null when it stays inside. */
export function linkEscape(path: string, target: string): string | null {
  if (target.startsWith('/') || target.startsWith('\\') || /^[A-Za-z]:/.test(target)) return 'an absolute target'
  const parts = path.split('/').slice(0, -1)
  for (const seg of target.split(/[\\/]/)) {
    if (seg === '' || seg === '.') continue
    if (seg === '..') {
      if (parts.length === 0) return "a '..' past the repository root"
      parts.pop()
    } else parts.push(seg)
  }
  if (parts.some((s) => s.toLowerCase() === '.git')) return 'the .git folder'
  return null
}

const finding = (code: PatchFinding['code'], level: PatchFinding['level'], message: string, path: string | null = null): PatchFinding => ({
  code,
  level,
  message,
  path
})

/** The patch artifact of an event: the one `kind=patch` artifact, or findings saying why there is none. */
function choosePatch(event: HubEvent, artifacts: (StoredArtifact | null)[], findings: PatchFinding[]): StoredArtifact | null {
  event.artifact_ids.forEach((id, i) => {
    if (!artifacts[i]) findings.push(finding('artifact-missing', 'error', `artifact ${id} is not in this hub (not synced yet, or deleted)`))
  })
  const patches = artifacts.filter((a): a is StoredArtifact => !!a && a.kind === 'patch')
  if (patches.length > 1)
    findings.push(
      finding(
        'several-patch-artifacts',
        'error',
        `${patches.length} patch artifacts on one event: Muster applies one patch per patch.ready`
      )
    )
  if (patches.length === 0 && artifacts.every(Boolean))
    findings.push(finding('no-patch-artifact', 'error', 'no artifact of kind patch is attached'))
  return patches.length === 1 ? patches[0]! : null
}

/** Muster's findings on the parsed text (no repository needed). */
function textFindings(parsed: ParsedPatch, size: number): PatchFinding[] {
  const out: PatchFinding[] = []
  for (const f of parsed.files) {
    for (const p of new Set([f.old_path, f.new_path])) {
      const why = p === null ? null : pathEscape(p)
      if (why) out.push(finding('path-outside-repo', 'error', `${JSON.stringify(p)} leaves the repository (${why})`, p))
    }
    if (f.binary)
      out.push(
        finding('binary', 'warning', `${f.new_path ?? f.old_path}: binary change (the diff view cannot show it)`, f.new_path ?? f.old_path)
      )
  }
  for (const l of parsed.symlinks) {
    const outside = l.target === null ? null : linkEscape(l.path, l.target)
    out.push(
      outside
        ? finding(
            'symlink',
            'error',
            `${l.path}: a symbolic link to ${JSON.stringify(l.target)}, which leads outside the repository (${outside})`,
            l.path
          )
        : finding(
            'symlink',
            'warning',
            `${l.path}: a symbolic link${l.target === null ? '' : ` to ${JSON.stringify(l.target)}`}: check where it points before applying`,
            l.path
          )
    )
  }
  if (parsed.binaryLookingLines > 0) {
    out.push(
      finding(
        'binary',
        'warning',
        `${parsed.binaryLookingLines} changed line${parsed.binaryLookingLines === 1 ? '' : 's'} hold control characters or invalid UTF-8: binary-looking content`
      )
    )
  }
  if (size > MAX_ARTIFACT_BYTES)
    out.push(finding('too-large', 'warning', `the patch is ${size} bytes, over the hub's 4 MiB limit for artifacts`))
  if (parsed.files.length === 0)
    out.push(finding('unparsed', 'warning', 'no file changes found: this does not look like a diff git can apply'))
  for (const p of parsed.problems) out.push(finding('unparsed', 'warning', p))
  return out
}

/**
 * Files the patch changes or deletes that do not exist at the base commit. One `git cat-file
 * --batch-check` answers both questions (the base as `<base>^{commit}`, then `<base>^{commit}:<path>`
 * for each file): `patch verify` runs from scripts and hooks, and each git process costs a spawn.
 */
async function baseFindings(repo: VerifyRepo, base: string, parsed: ParsedPatch): Promise<PatchFinding[]> {
  const unknown = [
    finding(
      'base-unknown',
      'warning',
      `base commit ${base} is not in ${repo.project}'s repository (fetch it, or this patch is for another project)`
    )
  ]
  // a name git's batch input cannot carry names no commit (rev-parse would not resolve it either)
  if (/[\n\r\0]/.test(base) || base.trim() === '') return unknown
  const needed = [
    ...new Set(parsed.files.filter((f) => f.status !== 'added' && f.old_path !== null && !pathEscape(f.old_path)).map((f) => f.old_path!))
  ]
  const commit = `${base}^{commit}`
  const [found, ...files] = await catFileCheck(repo.path, [commit, ...needed.map((p) => `${commit}:${p}`)])
  if (found?.type !== 'commit') return unknown
  return needed.flatMap((p, i) =>
    files[i] ? [] : [finding('missing-at-base', 'warning', `${p} does not exist at the base commit ${base.slice(0, 12)}`, p)]
  )
}

/** Verifies one `patch.ready` event's patch (see the file comment). Never throws for a bad patch. */
export async function verifyPatch(input: VerifyInput): Promise<VerifiedPatch> {
  const { event } = input
  const findings: PatchFinding[] = []
  if (event.type !== EventType.patchReady)
    findings.push(finding('not-a-patch', 'error', `${event.id} is a ${event.type} event, not a ${EventType.patchReady}`))
  const artifact = choosePatch(event, input.artifacts, findings)
  const parsed = artifact ? parsePatch(artifact.content) : null
  // the base-commit lookup is a git process: started first, it runs while the rest is checked here
  const atBase = parsed && input.repo && event.base_commit ? baseFindings(input.repo, event.base_commit, parsed) : null
  atBase?.catch(() => undefined) // awaited below, where its failure is reported as before
  const bytes = artifact ? Buffer.from(artifact.content, 'utf8') : null
  const integrity = artifact ? artifactIntegrity(artifact) : null
  const computed = integrity?.computed ?? null
  const shaOk = !!integrity?.sha256Ok
  const sizeOk = !!integrity?.sizeOk
  if (artifact && !shaOk) {
    findings.push(
      finding(
        'sha256-mismatch',
        'error',
        `stored sha256 ${artifact.sha256} does not match the artifact's bytes (${computed}): the content changed after it was stored`
      )
    )
  }
  if (artifact && !sizeOk)
    findings.push(finding('size-mismatch', 'error', `stored size ${artifact.size_bytes} bytes, but the content is ${bytes!.length} bytes`))

  const others = input.artifacts.filter((a): a is StoredArtifact => !!a && a !== artifact).map((a) => a.sha256)
  const claims = [
    ...findShaClaims(event.body, event.metadata),
    ...(artifact ? findShaClaims('', artifact.metadata).map((c) => ({ ...c, at: `artifact ${c.at}` })) : [])
  ]
  const quoted = compareClaims(claims, computed, others)
  for (const q of quoted.filter((x) => !x.ok)) {
    findings.push(
      finding(
        'quoted-sha-mismatch',
        'error',
        `the sender quoted sha256 ${q.sha256} (${q.where}, ${q.at}), but the artifact's bytes hash to ${computed ?? 'nothing'}`
      )
    )
  }

  if (parsed) findings.push(...textFindings(parsed, bytes!.length))
  if (atBase) findings.push(...(await atBase))

  const warnings = artifact ? patchWarnings('patch', artifact.content) : []
  const refused = findings.filter((f) => f.level === 'error').map((f) => f.message)
  const verification: Verification = {
    event_id: event.id,
    artifact_id: artifact?.id ?? null,
    verdict: refused.length ? 'refused' : warnings.length || findings.some((f) => f.level === 'warning') ? 'warnings' : 'ok',
    refused,
    sha256: { stored: artifact?.sha256 ?? null, computed, ok: shaOk },
    size: { stored: artifact?.size_bytes ?? null, actual: bytes?.length ?? null, ok: sizeOk },
    quoted,
    warnings,
    findings,
    files: parsed?.files ?? [],
    checked_in: input.repo && event.base_commit ? input.repo.project : null,
    checked_at: (input.now ?? new Date()).toISOString()
  }
  return { verification, artifact, bytes, parsed }
}
