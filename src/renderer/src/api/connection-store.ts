/**
 * The state of the renderer's live event channel (SSE in a browser, IPC in the desktop app) and
 * since when it holds: the transport writes it, the connection indicator and the screens that
 * say "reconnecting for 12 s" read it.
 */
import { create } from 'zustand'

/** State of the live event channel: SSE in a browser, always live over Electron IPC. */
export type ConnectionStatus = 'connecting' | 'live' | 'reconnecting'

interface ConnectionState {
  status: ConnectionStatus
  /** When the status last changed (ms since epoch), for "reconnecting for 12 s". */
  since: number
  setStatus: (status: ConnectionStatus) => void
}

/** The live connection indicator's state, written by the transport. */
export const useConnectionStore = create<ConnectionState>((set, get) => ({
  status: 'connecting',
  since: Date.now(),
  setStatus: (status) => {
    if (get().status !== status) set({ status, since: Date.now() })
  }
}))
