/**
 * The text domain's face: Markdown line helpers and Python-worded messages shared by the
 * domains. Code outside src/core/text imports only this.
 */
export { FenceTracker, eolOf, isRule, lineEnd, lineStart, normalise, parseHeader, splitLines, titleOf } from './markdown'
export { decodeUtf8Strict, pyOsErrorText } from './py-errors'
export { pyRepr } from './py-repr'
