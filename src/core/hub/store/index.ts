/**
 * The hub store's face: the local MemPalace SQLite file (create, append, ack, tasks, patches),
 * for core domains that write hub files directly (the demo). Entries use the hub service.
 */
export { createHub } from './schema'
export { ackEvent, appendEvent, createTaskRequest, sha256Hex, submitPatch, type AppendWrite, type HubEvent } from './writer'
