/**
 * Turns pushed events into cache invalidations. Bursts (an agent saving five files) are folded
 * into one refetch per animation frame.
 */
import { useEffect } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import type { ApplyRun } from '../../../shared/api'
import { attentionNotifier } from '../lib/inbox-notify'
import { client, onConnected, transportKind } from './client'
import { hubEventHandler } from './hub-live'
import { invalidateNeeds } from './needs-queries'
import { invalidateMuse, invalidateProjects, queryKey } from './queries'
import { newerRun } from './run-order'

/** Subscribes to pushed events for the lifetime of the app shell. */
export function useLiveEvents(): void {
  const qc = useQueryClient()
  useEffect(() => {
    let fleetFrame = 0
    const hub = hubEventHandler(qc)
    // In the desktop app the main process raises notifications itself (even when hidden).
    const notifier = transportKind === 'http' ? attentionNotifier() : null
    const unsubscribe = client.subscribe((event) => {
      switch (event.name) {
        case 'needs.changed':
          notifier?.push(event)
          void invalidateNeeds(qc)
          break
        case 'fleet.changed':
          if (!fleetFrame) {
            fleetFrame = requestAnimationFrame(() => {
              fleetFrame = 0
              void qc.invalidateQueries({ queryKey: ['fleet.status'] })
              void invalidateMuse(qc)
            })
          }
          break
        case 'muse.written':
          void invalidateMuse(qc)
          break
        case 'projects.changed':
          void invalidateProjects(qc)
          break
        case 'settings.changed':
          qc.setQueryData(queryKey('settings.get', {}), event.payload)
          break
        case 'hub.events':
        case 'hub.inbox':
          hub.handle(event)
          break
        case 'hub.status':
          // a hub went offline or came back: its badge lives in the hub list, its card in the overview
          void qc.invalidateQueries({ queryKey: ['hubs.list'] })
          void qc.invalidateQueries({ queryKey: ['hub.overview'] })
          break
        case 'notes.changed':
          void qc.invalidateQueries({ queryKey: ['notes.list', { project: event.payload.project }] })
          break
        case 'patch.run':
          // a run changed phase: the run itself is pushed whole; the inbox and the thread change when it ends
          qc.setQueryData<ApplyRun>(queryKey('patch.run', { id: event.payload.id }), (old) => newerRun(old, event.payload))
          if (event.payload.phase === 'done') {
            void qc.invalidateQueries({ queryKey: ['patch.list'] })
            void qc.invalidateQueries({ queryKey: ['patch.get'] })
            // the preconditions ("not applied yet", a clean worktree) change with the outcome
            void qc.invalidateQueries({ queryKey: ['patch.preflight'] })
            void qc.invalidateQueries({ queryKey: ['hub.list'] })
          }
          break
        case 'patch.output':
          // live test output is appended by the screen showing the run (usePatchOutput)
          break
        case 'gates.changed':
          void qc.invalidateQueries({ queryKey: ['gates.list'] })
          void qc.invalidateQueries({ queryKey: ['connect.list'] })
          break
        case 'usage.changed':
          void qc.invalidateQueries({ queryKey: ['usage.summary'] })
          void qc.invalidateQueries({ queryKey: ['budget.list'] })
          void qc.invalidateQueries({ queryKey: ['usage.prices'] })
          break
        default: {
          const never: never = event
          void never
        }
      }
    })
    // After a (re)connect we may have missed events: refetch everything that is on screen.
    const offConnected = onConnected(() => void qc.invalidateQueries())
    return () => {
      if (fleetFrame) cancelAnimationFrame(fleetFrame)
      hub.dispose()
      notifier?.dispose()
      unsubscribe()
      offConnected()
    }
  }, [qc])
}
