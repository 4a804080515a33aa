/**
 * The diff view's syntax colouring off the main thread: a module worker that tokenizes one
 * file's hunks per message (refractor through react-diff-view's tokenize) and posts the tokens
 * back, so colouring a large file never blocks scrolling or input.
 */
import { highlightHunks, type HighlightRequest, type HighlightReply } from './highlight'

/** The worker's global scope, as much of it as this uses (the renderer compiles with the DOM library). */
const scope = self as unknown as {
  onmessage: ((e: MessageEvent<HighlightRequest>) => void) | null
  postMessage(reply: HighlightReply): void
}

scope.onmessage = (e) => {
  const { id, hunks, language } = e.data
  scope.postMessage({ id, tokens: highlightHunks(hunks, language) })
}
