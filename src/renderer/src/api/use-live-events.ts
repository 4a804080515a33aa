/**
 * Turns pushed events into cache invalidations. Bursts (an agent saving five files) are folded
 * into one refetch per animation frame.
 */
import { useEffect } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { client, onConnected } from './client'
import { invalidateProjects, queryKey } from './queries'

/** Subscribes to pushed events for the lifetime of the app shell. */
export function useLiveEvents(): void {
  const qc = useQueryClient()
  useEffect(() => {
    let fleetFrame = 0
    const unsubscribe = client.subscribe((event) => {
      switch (event.name) {
        case 'fleet.changed':
          if (!fleetFrame) {
            fleetFrame = requestAnimationFrame(() => {
              fleetFrame = 0
              void qc.invalidateQueries({ queryKey: ['fleet.status'] })
            })
          }
          break
        case 'projects.changed':
          void invalidateProjects(qc)
          break
        case 'settings.changed':
          qc.setQueryData(queryKey('settings.get', {}), event.payload)
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
      unsubscribe()
      offConnected()
    }
  }, [qc])
}
