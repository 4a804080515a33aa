/**
 * The hub part of the contract: the MemPalace logstream (spec/hub-logstream.md).
 */

/** Methods on hubs: list, thread, append, ack, tasks. */
export const hubMethods = {} as const

/** Events pushed by the hub watcher. */
export const hubEvents = {} as const
