/** The built CLI beside a hook home (`hookHome`), made once before a test file's tests and closed after them. */
import { afterAll, beforeAll } from 'vitest'
import { builtCli } from './built-cli'
import { hookHome, type HookHome } from './hook-home'

/** What `useBuiltHookHome` hands on: the built CLI's `bin/muster.cjs` and the hook home. */
export interface BuiltHookHome extends HookHome {
  bin: string
}

/**
 * Registers the file's set-up: before its tests, a hook home (operator `operatorId` when given) and
 * the built CLI, handed to `set`; after them, the home's service closed.
 */
export function useBuiltHookHome(set: (made: BuiltHookHome) => void, operatorId?: string): void {
  let made: BuiltHookHome | undefined
  beforeAll(async () => {
    made = { bin: builtCli(), ...(await hookHome(operatorId)) }
    set(made)
  }, 240_000)
  afterAll(() => made?.service.close())
}
