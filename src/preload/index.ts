/**
 * The preload: exposes the typed Muster client as `window.muster` and nothing else. Runs
 * sandboxed and is bundled to a single CommonJS file, so it imports only zod-free helpers.
 */
import { contextBridge, ipcRenderer } from 'electron'
import { createPreloadClient } from './client'

const client = createPreloadClient(ipcRenderer)

// Only plain functions cross the bridge; `ipcRenderer` and IPC events never do.
contextBridge.exposeInMainWorld('muster', {
  call: (method: string, input: unknown) => client.call(method as never, input as never),
  callResult: (method: string, input: unknown) => client.callResult(method, input),
  subscribe: (listener: Parameters<typeof client.subscribe>[0]) => client.subscribe(listener)
})
