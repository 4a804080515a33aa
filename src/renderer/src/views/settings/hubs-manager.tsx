/**
 * MemPalace hubs Muster shows: the registered ones (a palace folder, or a hub server with its
 * online/offline and read-only state; remove, confirmed), the default, and the add form.
 */
import { useState } from 'react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Database, Server } from 'lucide-react'
import type { HubInfo, MethodInput } from '../../../../shared/api'
import { client } from '../../api/client'
import { invalidateHubReads, useHubs } from '../../api/hub-queries'
import { Chip } from '../../components/chip'
import { ErrorState, InlineError, LoadingState } from '../../components/state-views'
import { AddHubForm } from './add-hub-form'
import { RemoveButton } from './remove-button'

/** A hub's state as chips: missing, offline (with the reason), read-only (with the reason). */
function HubState({ hub }: { hub: HubInfo }) {
  if (!hub.exists && hub.kind === 'local') return <Chip tone="error">missing</Chip>
  return (
    <>
      {!hub.online && (
        <Chip tone="error" title={hub.offline_reason ?? undefined} data-testid={`hub-offline-${hub.name}`}>
          offline
        </Chip>
      )}
      {hub.read_only && (
        <Chip tone="warning" title={hub.read_only_reason ?? undefined} data-testid={`hub-read-only-${hub.name}`}>
          read-only
        </Chip>
      )}
    </>
  )
}

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
  const add = useHubRegistryMutation((input: MethodInput<'hubs.add'>) => client.call('hubs.add', input))
  const remove = useHubRegistryMutation((input: { name: string }) => client.call('hubs.remove', input))
  const [confirming, setConfirming] = useState<string | null>(null)

  if (hubs.isPending) return <LoadingState label="Loading hubs…" />
  if (hubs.isError)
    return <ErrorState title="Could not list the hubs" error={hubs.error} onRetry={() => void hubs.refetch()} retrying={hubs.isFetching} />
  const def = hubs.data.default
  return (
    <div className="hubs-manager">
      <ul className="project-list" data-testid="hub-list">
        {hubs.data.hubs.map((h) => (
          <li key={h.name} className="project-item" data-testid={`hub-item-${h.name}`}>
            {h.kind === 'remote' ? (
              <Server size={15} aria-label="hub server" className="muted" />
            ) : (
              <Database size={15} aria-label="palace folder" className="muted" />
            )}
            <div className="project-item-text">
              <span className="project-item-name hub-item-name">
                {h.name} <HubState hub={h} />
              </span>
              <span className="mono muted ellipsis" title={h.file}>
                {h.palace}
              </span>
              {!h.online && h.offline_reason && (
                <span className="hub-item-reason text-error ellipsis" title={h.offline_reason}>
                  {h.offline_reason}
                </span>
              )}
            </div>
            <RemoveButton
              confirming={confirming === h.name}
              onAsk={() => (remove.reset(), setConfirming(h.name))}
              onCancel={() => setConfirming(null)}
              onConfirm={() => remove.mutate({ name: h.name }, { onSuccess: () => setConfirming(null) })}
              busy={remove.isPending}
              question={
                h.kind === 'remote'
                  ? "Stop showing this hub? The server is not touched; Muster's token copy and mirror are deleted."
                  : 'Stop showing this hub? Its file is not touched.'
              }
              groupLabel={`Confirm removing hub ${h.name}`}
              testId={`remove-hub-${h.name}`}
              confirmTestId={`confirm-remove-hub-${h.name}`}
            />
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
      <AddHubForm add={(input, done) => add.mutate(input, { onSuccess: done })} pending={add.isPending} error={add.error} />
    </div>
  )
}
