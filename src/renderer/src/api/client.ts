/**
 * Picks the transport once at startup: the Electron preload's `window.muster` when present,
 * otherwise HTTP + SSE against `muster serve`.
 */
import type { MusterClient } from '../../../shared/api'
import { ApiError } from '../../../shared/api-error'
import type { MusterBridge } from '../env'
import { useConnectionStore } from './connection-store'
import { createHttpClient } from './http-client'
import { takeToken } from './token'

/** Which transport the renderer is using. */
export type TransportKind = 'ipc' | 'http'

type ConnectedListener = () => void
const connectedListeners = new Set<ConnectedListener>()

function pickClient(): { client: MusterClient; kind: TransportKind } {
  if (typeof window !== 'undefined' && window.muster) {
    // IPC has no connection to lose: the main process is always there while the window is.
    useConnectionStore.getState().setStatus('live')
    return { client: bridgeClient(window.muster), kind: 'ipc' }
  }
  const client = createHttpClient(takeToken(), {
    onStatus: (status) => useConnectionStore.getState().setStatus(status),
    onConnected: () => {
      for (const listener of connectedListeners) listener()
    }
  })
  return { client, kind: 'http' }
}

/** Wraps the preload bridge so failures arrive as ApiError with their code intact. */
function bridgeClient(bridge: MusterBridge): MusterClient {
  return {
    call: async (method, input) => {
      const result = await bridge.callResult(method, input)
      if (result.ok) return result.value as never
      throw new ApiError(result.error, result.code)
    },
    subscribe: (listener) => bridge.subscribe(listener)
  }
}

const picked = pickClient()

/** The app-wide typed client. */
export const client: MusterClient = picked.client
/** The transport in use, shown in Settings and the connection indicator. */
export const transportKind: TransportKind = picked.kind

/** Runs `listener` every time the live channel (re)connects; returns the unsubscribe function. */
export function onConnected(listener: ConnectedListener): () => void {
  connectedListeners.add(listener)
  return () => {
    connectedListeners.delete(listener)
  }
}
