/**
 * The shape of the service that implements `shared/api.ts`. Bindings (Electron IPC, HTTP + SSE,
 * the CLI, tests) depend on this interface only, never on the core's internals.
 */
import type { MethodName, MethodOutput, PushedEvent } from '../shared/api'
import type { KeyProtector } from './approvals'

/** How the service is reached; reported back by `app.info`. */
export type Transport = 'ipc' | 'http' | 'https'

/** Options to create the service. */
export interface ServiceOptions {
  /** Muster's home folder (state DB, settings). */
  home: string
  transport: Transport
  /** Watch registered projects for changes and push `fleet.changed` (default true). */
  watch?: boolean
  /** Debounce for file-change bursts in ms (default 60). */
  debounceMs?: number
  /** How long a hub read or write waits for a locked hub before "hub is locked" (default 10 s, MemPalace's). */
  hubLockTimeoutMs?: number
  /** The environment the service reads (HOME for the harnesses' settings, PATH for their commands); default process.env. */
  env?: Readonly<Record<string, string | undefined>>
  /** Keeps the operator's signing key wrapped (the desktop app: the OS keychain via safeStorage). */
  keyProtector?: KeyProtector | null
}

/** The object every binding drives. */
export interface MusterService {
  /** Validates `input` against the contract and runs the method; throws ApiError on bad input. */
  call<M extends MethodName>(method: M, input: unknown): Promise<MethodOutput<M>>
  /** Subscribes to pushed events; returns the unsubscribe function. */
  subscribe(listener: (event: PushedEvent) => void): () => void
  /** Stops watchers and closes the state DB. */
  close(): Promise<void>
}
