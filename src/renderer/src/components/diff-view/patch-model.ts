/**
 * The diff view's model of a raw patch: react-diff-view's parser per file, plus what the parser
 * drops (binary sections) and what the view flags (CRLF lines, no final newline, size).
 * The raw text is never normalised: carriage returns stay in each change's content.
 */
import { parseDiff, type FileData } from 'react-diff-view'

/** Files with more changed lines than this start collapsed behind "Load anyway" (GitHub-like). */
export const LARGE_FILE_LINES = 400

/** One file of a patch, as the view shows it. */
export interface DiffFile {
  /** Stable id for anchors ("file-0", ...). */
  id: string
  /** The path shown (new path, or old path for deletions). */
  path: string
  data: FileData
  /** Lines in the file's hunks (context + changes). */
  lineCount: number
  binary: boolean
  /** Lines ending in a carriage return. */
  crlfLines: number
  /** Which side lacks a final newline, if any. */
  noFinalNewline: { old: boolean; new: boolean }
  large: boolean
}

/** Splits the raw patch into per-file sections (on `diff --git` headers, else on `--- `). */
function rawSections(patch: string): string[] {
  const marker = /^diff --git /m.test(patch) ? /(?=^diff --git )/m : /(?=^--- )/m
  return patch.split(marker).filter((s) => /^(diff --git |--- )/.test(s))
}

/** Parses a raw patch into the files the view shows; throws a one-line error on garbage. */
export function parsePatch(patch: string): DiffFile[] {
  // the parser yields an empty file for text that is not a diff: drop files with no path and no hunk
  const parsed = parseDiff(patch, { nearbySequences: 'zip' }).filter((f) => f.oldPath || f.newPath || f.hunks.length > 0)
  const raws = rawSections(patch)
  return parsed.map((data, i) => {
    const raw = raws[i] ?? ''
    const changes = data.hunks.flatMap((h) => h.changes)
    const lineCount = changes.length
    return {
      id: `file-${i}`,
      path: data.type === 'delete' ? data.oldPath : data.newPath,
      data,
      lineCount,
      binary: data.hunks.length === 0 && /^(Binary files .* differ|GIT binary patch)$/m.test(raw),
      crlfLines: changes.filter((c) => c.content.endsWith('\r')).length,
      noFinalNewline: { old: !data.oldEndingNewLine, new: !data.newEndingNewLine },
      large: lineCount > LARGE_FILE_LINES
    }
  })
}

/** The language react-diff-view/refractor would use, from the file extension (for labels). */
export function languageOf(path: string): string {
  const ext = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase() ?? ''
  const map: Record<string, string> = {
    ts: 'typescript',
    tsx: 'tsx',
    js: 'javascript',
    jsx: 'jsx',
    mjs: 'javascript',
    py: 'python',
    rs: 'rust',
    go: 'go',
    cs: 'csharp',
    json: 'json',
    css: 'css',
    md: 'markdown',
    sh: 'bash',
    yml: 'yaml',
    yaml: 'yaml'
  }
  return map[ext] ?? 'text'
}

/** Rows a first screen can show (a 1000 px pane at ~18 px a row, with margin). */
export const FIRST_SCREEN_ROWS = 120

/** How many leading files to render at once so the first screen is full (at least one). */
export function firstScreenFiles(files: DiffFile[]): number {
  let rows = 0
  for (let i = 0; i < files.length; i++) {
    rows += files[i]!.large || files[i]!.binary ? 2 : Math.min(files[i]!.lineCount, FIRST_SCREEN_ROWS) + 2
    if (rows >= FIRST_SCREEN_ROWS) return i + 1
  }
  return files.length
}
