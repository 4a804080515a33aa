/**
 * The main thread's side of syntax colouring: `requestTokens` sends one file's hunks to the
 * shared highlight worker and resolves with its tokens. Where a worker cannot start (a page
 * without worker support, a blocked script), the same tokenizer runs here instead, in a task
 * after the next paint, so colours still arrive and the first screen is never held up.
 */
import type { HunkData, HunkTokens } from 'react-diff-view'
import { afterPaint } from './after-paint'
import type { HighlightReply, HighlightRequest } from './highlight'

type Pending = Map<number, (tokens: HunkTokens | null) => void>

let worker: Worker | null | undefined
const pending: Pending = new Map()
let nextId = 1

/** Tokenizes on the main thread (the fallback), after the next paint. */
function tokensHere(hunks: HunkData[], language: string): Promise<HunkTokens | null> {
  return new Promise((resolve) =>
    afterPaint(() => {
      void import('./highlight').then((m) => resolve(m.highlightHunks(hunks, language)))
    })
  )
}

/** The shared worker, started on first use; null when this page cannot run it. */
function highlightWorker(): Worker | null {
  if (worker !== undefined) return worker
  try {
    worker = new Worker(new URL('./highlight-worker.ts', import.meta.url), { type: 'module', name: 'diff-highlight' })
    worker.onmessage = (e: MessageEvent<HighlightReply>) => {
      pending.get(e.data.id)?.(e.data.tokens)
      pending.delete(e.data.id)
    }
    worker.onerror = () => {
      // the worker failed to load or crashed: answer what it holds here, and stop using it
      worker?.terminate()
      worker = null
      const waiting = [...pending.values()]
      pending.clear()
      for (const resolve of waiting) resolve(null)
    }
  } catch {
    worker = null
  }
  return worker
}

/**
 * Tokens for one file's hunks in `language` (null: plain text). `signal` abandons the request
 * (the file was closed or its hunks changed); the answer is then ignored.
 */
export function requestTokens(hunks: HunkData[], language: string, signal?: AbortSignal): Promise<HunkTokens | null> {
  const w = highlightWorker()
  if (!w) return tokensHere(hunks, language)
  const id = nextId++
  return new Promise((resolve) => {
    pending.set(id, (tokens) => {
      // a worker that died mid-request leaves the file to the fallback
      if (tokens === null && worker === null && !signal?.aborted) void tokensHere(hunks, language).then(resolve)
      else resolve(tokens)
    })
    signal?.addEventListener('abort', () => pending.delete(id), { once: true })
    const request: HighlightRequest = { id, hunks, language }
    w.postMessage(request)
  })
}
