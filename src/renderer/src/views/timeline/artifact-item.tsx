/** One artifact of an event: kind, size, the stored sha256 checked against the bytes, warnings. */
import { ShieldAlert, ShieldCheck } from 'lucide-react'
import { useArtifact } from '../../api/hub-queries'
import { Chip } from '../../components/chip'
import { CopyButton } from '../../components/copy-button'
import { formatBytes } from '../../lib/format'

/** Shows artifact `id` of `hub`; the sha256 verdict comes from the core, never from the renderer. */
export function ArtifactItem({ hub, id }: { hub: string | null; id: string }) {
  const art = useArtifact(hub, id)
  return (
    <li className="tl-artifact" data-testid={`artifact-${id}`}>
      <div className="tl-artifact-head">
        <code className="ellipsis" title={id}>
          {id}
        </code>
        <CopyButton text={id} label="Copy artifact id" />
      </div>
      {art.isError && <div className="inline-error">{art.error.message}</div>}
      {art.data && (
        <div className="tl-artifact-meta">
          <Chip tone="mono">{art.data.kind}</Chip>
          <span className="muted">{formatBytes(art.data.size_bytes)}</span>
          {art.data.sha256_ok && art.data.size_ok ? (
            <Chip tone="ok" title={`sha256 ${art.data.sha256} matches the stored bytes`} data-testid="artifact-sha-ok">
              <ShieldCheck size={12} aria-hidden /> sha256 ok
            </Chip>
          ) : (
            <Chip tone="error" title={`stored sha256 ${art.data.sha256} does not match the content`} data-testid="artifact-sha-bad">
              <ShieldAlert size={12} aria-hidden /> {art.data.sha256_ok ? 'size mismatch' : 'sha256 mismatch'}
            </Chip>
          )}
          <code className="muted ellipsis" title={art.data.sha256}>
            {art.data.sha256.slice(0, 16)}…
          </code>
          {art.data.warnings.map((w) => (
            <div key={w} className="tl-artifact-warning">
              ⚠ {w}
            </div>
          ))}
        </div>
      )}
    </li>
  )
}
