/** MemPalace hubs Muster shows: the registered ones (remove, confirmed), the default, and an add form. */
import { useState, type FormEvent } from 'react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Database, Plus, Trash2 } from 'lucide-react'
import { client } from '../../api/client'
import { invalidateHubReads, useHubs } from '../../api/hub-queries'
import { ErrorState, InlineError, LoadingState } from '../../components/state-views'

/** A hub-registry mutation that refetches the hub list and every hub read. */
function useHubRegistryMutation<I>(call: (input: I) => Promise<unknown>) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: call,
    onSuccess: () => Promise.all([qc.invalidateQueries({ queryKey: ['hubs.list'] }), invalidateHubReads(qc)]).then(() => undefined)
  })
}

/** The hubs section of Settings. */
export function HubsManager() {
  const hubs = useHubs()
  const add = useHubRegistryMutation((input: { palace: string; name?: string; create?: boolean }) => client.call('hubs.add', input))
  const remove = useHubRegistryMutation((input: { name: string }) => client.call('hubs.remove', input))
  const [palace, setPalace] = useState('')
  const [name, setName] = useState('')
  const [create, setCreate] = useState(false)
  const [confirming, setConfirming] = useState<string | null>(null)

  const submit = (e: FormEvent): void => {
    e.preventDefault()
    add.mutate({ palace: palace.trim(), name: name.trim() || undefined, create }, { onSuccess: () => (setPalace(''), setName('')) })
  }

  if (hubs.isPending) return <LoadingState label="Loading hubs…" />
  if (hubs.isError) return <ErrorState title="Could not list the hubs" error={hubs.error} onRetry={() => void hubs.refetch()} retrying={hubs.isFetching} />
  const def = hubs.data.default
  return (
    <div className="hubs-manager">
      <ul className="project-list" data-testid="hub-list">
        {hubs.data.hubs.map((h) => (
          <li key={h.name} className="project-item" data-testid={`hub-item-${h.name}`}>
            <Database size={15} aria-hidden className="muted" />
            <div className="project-item-text">
              <span className="project-item-name">
                {h.name} {!h.exists && <span className="text-error">missing</span>}
              </span>
              <span className="mono muted ellipsis" title={h.file}>
                {h.palace}
              </span>
            </div>
            {confirming === h.name ? (
              <span className="confirm" role="group" aria-label={`Confirm removing hub ${h.name}`}>
                <span>Stop showing this hub? Its file is not touched.</span>
                <button type="button" className="btn btn-danger" autoFocus data-testid={`confirm-remove-hub-${h.name}`} disabled={remove.isPending} onClick={() => remove.mutate({ name: h.name }, { onSuccess: () => setConfirming(null) })}>
                  <Trash2 size={14} aria-hidden /> Remove
                </button>
                <button type="button" className="btn" onClick={() => setConfirming(null)}>
                  Cancel
                </button>
              </span>
            ) : (
              <button type="button" className="btn btn-ghost" data-testid={`remove-hub-${h.name}`} onClick={() => (remove.reset(), setConfirming(h.name))}>
                <Trash2 size={14} aria-hidden /> Remove
              </button>
            )}
          </li>
        ))}
        {!def.registered && (
          <li className="project-item muted" data-testid="hub-default">
            <Database size={15} aria-hidden />
            <div className="project-item-text">
              <span className="project-item-name">default ({def.source})</span>
              <span className="mono ellipsis" title={def.file}>
                {def.palace} {def.exists ? '' : '— no hub there yet'}
              </span>
            </div>
          </li>
        )}
      </ul>
      <InlineError error={remove.error} />
      <form className="form form-compact" onSubmit={submit} data-testid="add-hub">
        <div className="field-row">
          <div className="field field-grow">
            <label htmlFor="add-hub-palace">Palace folder</label>
            <input id="add-hub-palace" className="input mono" value={palace} onChange={(e) => setPalace(e.target.value)} placeholder="~/.mempalace/palace" spellCheck={false} autoComplete="off" data-testid="add-hub-palace" />
          </div>
          <div className="field field-name">
            <label htmlFor="add-hub-name">
              Name <span className="muted">(optional)</span>
            </label>
            <input id="add-hub-name" className="input" value={name} onChange={(e) => setName(e.target.value)} placeholder="folder name" spellCheck={false} autoComplete="off" data-testid="add-hub-name" />
          </div>
          <button type="submit" className="btn btn-primary field-submit" disabled={add.isPending || !palace.trim()} data-testid="add-hub-submit">
            <Plus size={14} aria-hidden /> Add hub
          </button>
        </div>
        <label className="hint hub-create">
          <input type="checkbox" checked={create} onChange={(e) => setCreate(e.target.checked)} data-testid="add-hub-create" /> Create <code>logstream.sqlite3</code> with
          MemPalace's schema if the folder has no hub yet
        </label>
        <InlineError error={add.error} />
      </form>
    </div>
  )
}
