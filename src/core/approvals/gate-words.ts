/**
 * Reading an installed gate's command line back: its words as the shell splits them (the
 * quoting `shellQuote` writes: bare words and `'...'` with `'\''`), up to a `||` or `;`, and the
 * options Muster wrote into it (`--agent`, `--hub`, `--palace`, `--home`, `--event`).
 */

/** The words of a command line, up to its first `||`, `&&` or `;` (what runs Muster). */
export function shellWords(command: string): string[] {
  const words: string[] = []
  let word: string | null = null
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!
    if (c === "'") {
      const end = command.indexOf("'", i + 1)
      word = (word ?? '') + command.slice(i + 1, end < 0 ? command.length : end)
      i = end < 0 ? command.length : end
    } else if (c === '"') {
      let j = i + 1
      let text = ''
      for (; j < command.length && command[j] !== '"'; j++) text += command[j] === '\\' ? command[++j] : command[j]
      word = (word ?? '') + text
      i = j
    } else if (c === '\\') word = (word ?? '') + (command[++i] ?? '')
    else if (/\s/.test(c)) {
      if (word !== null) words.push(word)
      word = null
    } else if ((c === '|' || c === '&') && command[i + 1] === c && word === null) break
    else if (c === ';' && word === null) break
    else word = (word ?? '') + c
  }
  if (word !== null) words.push(word)
  return words
}

/** The value of `--name` in a command's words (`--name V` or `--name=V`), or undefined. */
export function wordOption(words: readonly string[], name: string): string | undefined {
  for (let i = 0; i < words.length; i++) {
    if (words[i] === name) return words[i + 1]
    if (words[i]!.startsWith(`${name}=`)) return words[i]!.slice(name.length + 1)
  }
  return undefined
}
