/**
 * Syntax colouring for the diff view: refractor 3 (Prism) with the languages a fleet's patches
 * mostly hold, through react-diff-view's tokenize. Unknown languages stay plain. It runs in
 * `highlight-worker.ts` (see `highlighter.ts`); the messages' shapes are here.
 */
import refractor from 'refractor/core'
import bash from 'refractor/lang/bash'
import csharp from 'refractor/lang/csharp'
import css from 'refractor/lang/css'
import go from 'refractor/lang/go'
import json from 'refractor/lang/json'
import jsx from 'refractor/lang/jsx'
import markdown from 'refractor/lang/markdown'
import python from 'refractor/lang/python'
import rust from 'refractor/lang/rust'
import tsx from 'refractor/lang/tsx'
import typescript from 'refractor/lang/typescript'
import yaml from 'refractor/lang/yaml'
import { tokenize, type HunkData, type HunkTokens } from 'react-diff-view'

for (const lang of [bash, csharp, css, go, json, jsx, markdown, python, rust, typescript, tsx, yaml]) refractor.register(lang)

/** A file's hunks to colour, sent to the worker. */
export interface HighlightRequest {
  id: number
  hunks: HunkData[]
  language: string
}

/** The worker's answer: the tokens, or null when the language is not registered. */
export interface HighlightReply {
  id: number
  tokens: HunkTokens | null
}

/** Tokens for `hunks` in `language`, or null when the language is not registered. */
export function highlightHunks(hunks: HunkData[], language: string): HunkTokens | null {
  const lang = language === 'javascript' ? 'jsx' : language
  if (hunks.length === 0 || !refractor.registered(lang)) return null
  try {
    return tokenize(hunks, { highlight: true, refractor, language: lang })
  } catch {
    return null // a grammar that fails on odd input leaves the file plain rather than breaking the view
  }
}
