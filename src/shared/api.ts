/**
 * The one contract between Muster's core and every transport (Electron IPC, HTTP + SSE, tests).
 *
 * Each method has a runtime input schema (validated by every binding before the core sees it)
 * and an output schema (used by tests and by the HTTP client in development). Pushed events
 * are declared the same way. Nothing here may import Node or Electron: the renderer uses it too.
 */
import type { z } from 'zod'
import { approvalEvents, approvalMethods } from './contract/approvals'
import { fleetEvents, fleetMethods } from './contract/fleet'
import { hubEvents, hubMethods } from './contract/hub'
import { invokeMethods } from './contract/invoke'
import { museEvents, museMethods } from './contract/muse'
import { needsEvents, needsMethods } from './contract/needs'
import { gatesEvents, gatesMethods } from './contract/gates'
import { connectMethods } from './contract/connect'
import { notesEvents, notesMethods } from './contract/notes'
import { ApiError } from './api-error'
import { patchEvents, patchMethods } from './contract/patches'
import { presenceEvents, presenceMethods } from './contract/presence'
import { pushEvents, pushMethods } from './contract/push'
import { usageEvents, usageMethods } from './contract/usage'

export * from './contract/fleet-types'
export * from './contract/fleet'
export * from './contract/muse'
export * from './contract/hub'
export * from './contract/notes'
export * from './contract/invoke'
export * from './api-error'
export * from './contract/patches'
export * from './contract/approvals'
export * from './contract/needs'
export * from './contract/presence'
export * from './contract/push'
export * from './contract/gates'
export * from './contract/connect'
export * from './contract/usage'

/** Every request/response method: name -> input and output schemas. */
export const methods = {
  ...fleetMethods,
  ...museMethods,
  ...hubMethods,
  ...notesMethods,
  ...invokeMethods,
  ...patchMethods,
  ...approvalMethods,
  ...needsMethods,
  ...presenceMethods,
  ...pushMethods,
  ...gatesMethods,
  ...connectMethods,
  ...usageMethods
} as const

/** Names of every request/response method. */
export type MethodName = keyof typeof methods
/** The input type of method M. */
export type MethodInput<M extends MethodName> = z.input<(typeof methods)[M]['input']>
/** The output type of method M. */
export type MethodOutput<M extends MethodName> = z.infer<(typeof methods)[M]['output']>

/** Every pushed event: name -> payload schema. */
export const events = {
  ...fleetEvents,
  ...museEvents,
  ...hubEvents,
  ...notesEvents,
  ...patchEvents,
  ...approvalEvents,
  ...needsEvents,
  ...presenceEvents,
  ...pushEvents,
  ...gatesEvents,
  ...usageEvents
} as const

/** Names of every pushed event. */
export type EventName = keyof typeof events
/** A pushed event as it travels: its name and its payload. */
export type PushedEvent = { [E in EventName]: { name: E; payload: z.infer<(typeof events)[E]> } }[EventName]

/** The typed client every UI uses, whatever the transport underneath. */
export interface MusterClient {
  call<M extends MethodName>(method: M, input: MethodInput<M>): Promise<MethodOutput<M>>
  /** Subscribes to pushed events; returns the unsubscribe function. */
  subscribe(listener: (event: PushedEvent) => void): () => void
}

/** True when `name` is one of the contract's methods (for bindings receiving untrusted names). */
export function isMethodName(name: unknown): name is MethodName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(methods, name)
}

/** Validates a method's input, throwing an `invalid_input` ApiError with a one-line message. */
export function parseInput<M extends MethodName>(method: M, input: unknown): z.infer<(typeof methods)[M]['input']> {
  const result = methods[method].input.safeParse(input ?? {})
  if (!result.success) {
    const issue = result.error.issues[0]
    const where = issue && issue.path.length ? `${issue.path.join('.')}: ` : ''
    throw new ApiError(`invalid input for ${method}: ${where}${issue?.message ?? 'bad input'}`, 'invalid_input')
  }
  return result.data as z.infer<(typeof methods)[M]['input']>
}
