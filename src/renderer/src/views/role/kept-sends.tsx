/**
 * Sends kept aside beside this role file (another writer kept dropping them and the guard could
 * not apply them again): each shows the lines a merge would put back, with Merge back (a union
 * merge: every line of the file stays) and Discard. The needs-you queue links here.
 */
import { GitMerge, Trash2 } from 'lucide-react'
import type { KeptEdit } from '../../../../shared/api'
import { useKept, useKeptDiscard, useKeptMerge } from '../../api/queries'
import { useToastStore } from '../../stores/toast-store'
import { ActionButton } from '../../components/action-button'
import { RelativeTime } from '../../components/relative-time'

/** The kept sends of one role file, or nothing when there are none. */
export function KeptSends({ project, file }: { project: string; file: string }) {
  const kept = useKept(project)
  const mine = (kept.data?.kept ?? []).filter((k) => k.file.toLowerCase() === file.toLowerCase())
  if (!mine.length) return null
  return (
    <section className="rv-kept" aria-label="Sends kept aside" data-testid="kept-sends">
      {mine.map((k) => (
        <KeptSend key={k.name} kept={k} />
      ))}
    </section>
  )
}

function KeptSend({ kept }: { kept: KeptEdit }) {
  const push = useToastStore((s) => s.push)
  const merge = useKeptMerge()
  const discard = useKeptDiscard()
  const busy = merge.isPending || discard.isPending
  const input = { project: kept.project, name: kept.name }
  const more = kept.missing - kept.preview.length
  const failed = (err: Error): void => push('error', err.message)
  const discardIt = (): void =>
    discard.mutate(input, { onSuccess: () => push('info', `Deleted the kept copy of ${kept.file}`), onError: failed })
  const mergeBack = (): void =>
    merge.mutate(input, {
      onSuccess: (r) =>
        push(
          'info',
          r.restored ? `Merged ${r.restored} line${r.restored === 1 ? '' : 's'} back into ${r.file}` : `${r.file} had every line already`
        ),
      onError: failed
    })
  return (
    <div className="rv-kept-item" data-testid="kept-send" data-name={kept.name}>
      <p className="rv-kept-title">
        <GitMerge size={15} aria-hidden />
        <span>
          <strong>A send was overwritten by another writer and kept aside</strong> <RelativeTime iso={kept.since} />.{' '}
          {kept.missing
            ? `Merging puts back ${kept.missing === 1 ? 'this line' : `these ${kept.missing} lines`}; every line of ${kept.file} stays.`
            : `Every line of it is in ${kept.file} again: merging deletes the copy.`}
        </span>
      </p>
      {kept.missing > 0 && (
        <pre className="rv-kept-lines" data-testid="kept-lines">
          {kept.preview.join('\n')}
          {more > 0 ? `\n… and ${more} more` : ''}
        </pre>
      )}
      <div className="rv-kept-actions">
        <span className="rv-kept-name mono ellipsis muted" title={`.muse/${kept.name}`}>
          .muse/{kept.name}
        </span>
        <ActionButton icon={Trash2} disabled={busy} testId="kept-discard" onClick={discardIt}>
          Discard
        </ActionButton>
        <ActionButton icon={GitMerge} className="btn btn-primary" disabled={busy} testId="kept-merge" onClick={mergeBack}>
          Merge back
        </ActionButton>
      </div>
    </div>
  )
}
