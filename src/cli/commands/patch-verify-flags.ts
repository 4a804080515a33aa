/**
 * The words of `muster patch verify ID` as the CLI's fast path reads them (bin/muster.cjs hands a
 * `patch verify` call to `out/cli/patch-verify.cjs` first: scripts and hooks run it often). Only
 * the plain form is read here; anything else (help, an unknown or repeated word, a value that
 * looks like a flag) gives null and the call goes to commander, which answers as always. Light on
 * purpose: no imports.
 */

/** A plain `patch verify` call. */
export interface PatchVerifyArgs {
  id: string
  json: boolean
  home?: string
  palace?: string
  project?: string
  hub?: string
}

/** Options that take a value: the CLI's global ones anywhere, the command's own after `verify`. */
const GLOBAL_VALUES = new Set(['--home', '--palace'])
const OWN_VALUES = new Set(['--project', '--hub'])

/** Reads `argv` (the words after `muster`) as a plain `patch verify ID` call, or null. */
export function parsePatchVerifyArgv(argv: readonly string[]): PatchVerifyArgs | null {
  const words: string[] = []
  const values = new Map<string, string>()
  let json = false
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!
    if (word === '--json') json = true
    else if (word.startsWith('-')) {
      const eq = word.indexOf('=')
      const flag = eq > 0 ? word.slice(0, eq) : word
      const own = OWN_VALUES.has(flag)
      if (!GLOBAL_VALUES.has(flag) && !(own && words.length >= 2)) return null
      const value = eq > 0 ? word.slice(eq + 1) : argv[++i]
      if (value === undefined || value === '' || (eq < 0 && value.startsWith('-'))) return null
      values.set(flag, value)
    } else words.push(word)
  }
  if (words.length !== 3 || words[0] !== 'patch' || words[1] !== 'verify') return null
  const at = (flag: string): { [k: string]: string } => {
    const v = values.get(flag)
    return v === undefined ? {} : { [flag.slice(2)]: v }
  }
  return { id: words[2]!, json, ...at('--home'), ...at('--palace'), ...at('--project'), ...at('--hub') }
}
