/**
 * The options, result and test hooks of `safeEdit` (`safe-write.ts`), in a file of their own so
 * the edit session and the keeper of replaced versions use them without importing the door itself.
 */
import type { WindowHook } from './safe-write-swap'

/** Test hooks: concurrent writers at the three moments that matter. */
export interface SafeWriteHooks {
  /** After the new content is in its temp file, before the swap (the read-to-swap gap). */
  beforeRename?: (path: string, attempt: number) => void | Promise<void>
  /** After the version at the path was captured and compared, before the final check and rename (synchronous, like the swap). */
  inWindow?: WindowHook
  /**
   * Between the final check and the exchange (or rename): what lands here is handed back by the
   * exchange; where there is none, it is replaced, and reported.
   */
  afterCheck?: WindowHook
  /** Right after the exchange, before the version it handed back is looked at (synchronous). */
  afterExchange?: WindowHook
  /** Right after Muster's version went into place; `aside` names the links to the version it replaced. */
  afterInstall?: (path: string, attempt: number, aside: string[]) => void | Promise<void>
}

/** Options of `safeEdit`. */
export interface SafeEditOptions {
  /** The project folder: the real path written must lie inside it (link policy). */
  within: string
  /** Create the file with `edit('')` when it does not exist (default false: not_found). */
  create?: boolean
  /** The file's size as the caller last saw it (a smaller file is a rewrite to wait out). */
  sizeHint?: number
  /** Overall bound in ms (default 10 s). */
  timeoutMs?: number
  hooks?: SafeWriteHooks
  /**
   * Watch the file after the edit returns and keep the edit in it (`safe-write-guard.ts`; default
   * false). Only for an edit whose function is free of side effects and that nothing undoes later
   * (a send): the guard calls it again to ask whether its change is still there.
   */
  guard?: boolean
  /** How many times this edit was applied again after another writer dropped it (internal). */
  guardRound?: number
}

/** Result of an edit. */
export interface SafeEditResult {
  /** Whether Muster's edit changed the file (false: it was already there). */
  changed: boolean
  created: boolean
  /** The text on disk when the edit was verified (without BOM). */
  text: string
  /** The text the edit was last applied to, and what it made of it (for an exact undo). */
  applied: { before: string; after: string } | null
}

/** `safeEdit` itself, handed to the parts that edit again (the keeper merges late bytes through it). */
export type SafeEditFn = (path: string, edit: (text: string) => string | null, opts: SafeEditOptions) => Promise<SafeEditResult>
