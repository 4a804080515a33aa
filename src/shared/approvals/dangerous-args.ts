/**
 * Arguments that change what a command does: the list no wildcard of an allowlist rule covers
 * (issue 32 point 5). `npm test *` allows `npm test -- --run`, never `npm test
 * --script-shell=/tmp/evil.sh`; `find *` never allows `-delete` or `-exec`; `git diff*` never
 * `--output=`. An argument on the list passes only where the rule's author wrote it out (the
 * pattern's own text, not a `*`), so an operator who means `find . -name x -delete` writes it.
 * Maintained here, per program, with why each is there. Redirections (`>`, `>>`, `<`) and every
 * other shell operator are never covered by a wildcard at all (`allow-rules.ts`).
 * Pure (no Node, no zod): the hook process and the screen share it.
 */

/** Why an argument is on the list, in the operator's words. */
export type DangerKind = 'runs' | 'writes' | 'loads' | 'sends' | 'redirects'

/** The operator-facing words of each kind. */
export const DANGER_WORDS: Readonly<Record<DangerKind, string>> = {
  runs: 'runs another command',
  writes: 'writes, deletes or overwrites files',
  loads: 'loads code or configuration from elsewhere',
  sends: 'sends data or fetches from elsewhere',
  redirects: 'points the command at another repository, folder or program'
}

/**
 * One entry: how an argument is written, and why it is here.
 * - `--long`: the option, `--long=value`, or (for the programs in `ABBREVIATING`, and their own list) an
 *   abbreviation of it (`--outp`: git and GNU getopt accept them);
 * - `-x` (one letter): the flag alone, with its value attached (`-o/tmp/x`), or in a cluster (`-sLo`);
 * - `-word` (one dash, several letters, find's and go's style): the word, or `-word=value`;
 * - `key.name`: a configuration key anywhere in a word (`-c core.pager=...`), any case;
 * - `NAME=value`: any word assigning a variable (`make SHELL=/tmp/x`);
 * - `*`: any argument at all (a program that runs the command it is given).
 */
export type DangerSpec = readonly [spec: string, kind: DangerKind]

/** Arguments no wildcard covers, whatever the program. */
export const ANY_PROGRAM: readonly DangerSpec[] = [
  ['--script-shell', 'runs'],
  ['--exec', 'runs'],
  ['--shell', 'runs'],
  ['--eval', 'runs'],
  ['--upload-pack', 'runs'],
  ['--receive-pack', 'runs'],
  ['--output', 'writes'],
  ['--output-file', 'writes'],
  ['--config', 'loads'],
  ['--config-file', 'loads'],
  ['--require', 'loads'],
  ['--import', 'loads'],
  ['--loader', 'loads'],
  ['--node-options', 'loads'],
  ['--rcfile', 'loads'],
  ['--init-file', 'loads']
]

/** Programs that run the command they are given: a wildcard covers none of their arguments. */
const RUNNERS = [
  'xargs',
  'env',
  'sudo',
  'doas',
  'su',
  'nohup',
  'timeout',
  'nice',
  'ionice',
  'stdbuf',
  'setsid',
  'chroot',
  'watch',
  'exec',
  'eval',
  'command',
  'builtin',
  'time',
  'script',
  'parallel',
  'flock'
]

/** Programs that accept a long option by a unique prefix of it (git's parse-options, GNU getopt_long). */
const ABBREVIATING = new Set(['git', 'sed', 'tar', 'sort', 'wget', 'make', 'rsync', 'cp', 'mv'])

/** Package runners (npm, pnpm, yarn, bun, npx). */
const PACKAGE_RUNNER: readonly DangerSpec[] = [
  ['--script-shell', 'runs'],
  ['-c', 'runs'],
  ['--call', 'runs'],
  ['--node-options', 'loads'],
  ['--userconfig', 'loads'],
  ['--globalconfig', 'loads'],
  ['--prefix', 'redirects'],
  ['--registry', 'sends']
]

/** Shells and interpreters: `-c`/`-e` run the text given. */
const SHELL: readonly DangerSpec[] = [['-c', 'runs']]
const NODE: readonly DangerSpec[] = [
  ['-e', 'runs'],
  ['-p', 'runs'],
  ['--print', 'runs'],
  ['-r', 'loads'],
  ['--experimental-loader', 'loads'],
  ['--env-file', 'loads']
]
const PYTHON: readonly DangerSpec[] = [
  ['-c', 'runs'],
  ['-m', 'runs']
]
const SCRIPTING: readonly DangerSpec[] = [
  ['-e', 'runs'],
  ['-E', 'runs'],
  ['-i', 'writes']
]
/** Test runners and linters whose `-c` names a configuration file (code, for most of them). */
const CONFIGURED: readonly DangerSpec[] = [
  ['-c', 'loads'],
  ['--plugin', 'loads'],
  ['--rulesdir', 'loads'],
  ['--resolve-plugins-relative-to', 'loads']
]

/** pip: where packages come from. */
const PIP: readonly DangerSpec[] = [
  ['-i', 'sends'],
  ['--index-url', 'sends'],
  ['--extra-index-url', 'sends'],
  ['--trusted-host', 'sends']
]
/** Container runners: what the container may reach. */
const CONTAINER: readonly DangerSpec[] = [
  ['--privileged', 'loads'],
  ['-v', 'redirects'],
  ['--volume', 'redirects'],
  ['--mount', 'redirects'],
  ['--device', 'redirects'],
  ['--cap-add', 'loads'],
  ['--security-opt', 'loads'],
  ['--pid', 'redirects'],
  ['--network', 'redirects'],
  ['--net', 'redirects'],
  ['--entrypoint', 'runs'],
  ['--userns', 'loads']
]

/** Per program (the command's first word, without its folder), the arguments that change what it does. */
export const DANGEROUS_ARGS: Readonly<Record<string, readonly DangerSpec[]>> = {
  find: [
    ['-exec', 'runs'],
    ['-execdir', 'runs'],
    ['-ok', 'runs'],
    ['-okdir', 'runs'],
    ['-delete', 'writes'],
    ['-fprint', 'writes'],
    ['-fprint0', 'writes'],
    ['-fprintf', 'writes'],
    ['-fls', 'writes']
  ],
  git: [
    ['-c', 'loads'],
    ['--config-env', 'loads'],
    ['--exec-path', 'runs'],
    ['--git-dir', 'redirects'],
    ['--work-tree', 'redirects'],
    ['--upload-pack', 'runs'],
    ['-u', 'runs'],
    ['--receive-pack', 'runs'],
    ['--exec', 'runs'],
    ['--output', 'writes'],
    ['-O', 'runs'],
    ['--open-files-in-pager', 'runs'],
    ['--ext-diff', 'runs'],
    ['--template', 'loads'],
    ['core.pager', 'runs'],
    ['core.editor', 'runs'],
    ['core.sshcommand', 'runs'],
    ['core.hookspath', 'runs'],
    ['core.fsmonitor', 'runs'],
    ['diff.external', 'runs'],
    ['sequence.editor', 'runs'],
    ['credential.helper', 'runs']
  ],
  npm: PACKAGE_RUNNER,
  npx: PACKAGE_RUNNER,
  pnpm: PACKAGE_RUNNER,
  pnpx: PACKAGE_RUNNER,
  yarn: PACKAGE_RUNNER,
  bun: PACKAGE_RUNNER,
  bunx: PACKAGE_RUNNER,
  node: NODE,
  deno: [
    ['-A', 'loads'],
    ['--allow-all', 'loads'],
    ['--allow-run', 'runs']
  ],
  sh: SHELL,
  bash: SHELL,
  zsh: SHELL,
  dash: SHELL,
  ksh: SHELL,
  fish: SHELL,
  python: PYTHON,
  python3: PYTHON,
  perl: SCRIPTING,
  ruby: SCRIPTING,
  sed: [
    ['-i', 'writes'],
    ['--in-place', 'writes'],
    ['-f', 'loads'],
    ['--file', 'loads']
  ],
  curl: [
    ['-o', 'writes'],
    ['-O', 'writes'],
    ['--remote-name', 'writes'],
    ['--remote-name-all', 'writes'],
    ['--output-dir', 'writes'],
    ['-K', 'loads'],
    ['-T', 'sends'],
    ['--upload-file', 'sends'],
    ['-d', 'sends'],
    ['--data', 'sends'],
    ['--data-binary', 'sends'],
    ['--data-raw', 'sends'],
    ['--data-urlencode', 'sends'],
    ['--json', 'sends'],
    ['-F', 'sends'],
    ['--form', 'sends']
  ],
  wget: [
    ['-O', 'writes'],
    ['--output-document', 'writes'],
    ['-o', 'writes'],
    ['-P', 'writes'],
    ['--directory-prefix', 'writes'],
    ['-e', 'runs'],
    ['--execute', 'runs'],
    ['--post-file', 'sends'],
    ['--post-data', 'sends'],
    ['-i', 'loads'],
    ['--input-file', 'loads']
  ],
  tar: [
    ['--to-command', 'runs'],
    ['--checkpoint-action', 'runs'],
    ['--use-compress-program', 'runs'],
    ['-I', 'runs'],
    ['--info-script', 'runs'],
    ['--new-volume-script', 'runs'],
    ['-F', 'runs']
  ],
  rsync: [
    ['-e', 'runs'],
    ['--rsh', 'runs'],
    ['--rsync-path', 'runs'],
    ['--delete', 'writes'],
    ['--remove-source-files', 'writes']
  ],
  ssh: [
    ['-o', 'runs'],
    ['-F', 'loads']
  ],
  scp: [
    ['-o', 'runs'],
    ['-F', 'loads'],
    ['-S', 'runs']
  ],
  make: [
    ['-f', 'loads'],
    ['--file', 'loads'],
    ['--makefile', 'loads'],
    ['--eval', 'runs'],
    ['-E', 'runs'],
    ['-C', 'redirects'],
    ['--directory', 'redirects'],
    ['NAME=value', 'runs']
  ],
  sort: [
    ['-o', 'writes'],
    ['--output', 'writes']
  ],
  cargo: [
    ['--config', 'loads'],
    ['-Z', 'loads']
  ],
  go: [
    ['-exec', 'runs'],
    ['-toolexec', 'runs'],
    ['-modfile', 'loads'],
    ['-overlay', 'loads'],
    ['-o', 'writes']
  ],
  pip: PIP,
  pip3: PIP,
  docker: CONTAINER,
  podman: CONTAINER,
  vitest: CONFIGURED,
  jest: CONFIGURED,
  pytest: CONFIGURED,
  eslint: CONFIGURED,
  prettier: CONFIGURED,
  cc: [['-o', 'writes']],
  gcc: [['-o', 'writes']],
  clang: [['-o', 'writes']],
  ...Object.fromEntries(RUNNERS.map((r) => [r, [['*', 'runs']] as const]))
}

/** One word of a command: its text as the shell passes it (quotes removed) and where it stands. */
export interface ShellWord {
  text: string
  start: number
  end: number
  /** The first word of its simple command (its program), after any `NAME=value` words. */
  command: boolean
  /** A `NAME=value` word before the program. */
  assignment: boolean
}

/** Splits a command into words (quotes removed, `\` escapes read), marking each simple command's program. */
export function shellWords(command: string): ShellWord[] {
  const words: ShellWord[] = []
  let i = 0
  let atCommand = true
  while (i < command.length) {
    const c = command[i]!
    if (c === ' ' || c === '\t') {
      i++
      continue
    }
    if (';&|\n\r()'.includes(c)) {
      atCommand = true
      i++
      continue
    }
    const start = i
    let text = ''
    while (i < command.length && !' \t;&|\n\r()'.includes(command[i]!)) {
      const ch = command[i]!
      if (ch === '\\' && i + 1 < command.length) {
        text += command[i + 1]
        i += 2
      } else if (ch === "'" || ch === '"') {
        const close = command.indexOf(ch, i + 1)
        const end = close === -1 ? command.length : close
        text += command.slice(i + 1, end)
        i = end + 1
      } else {
        text += ch
        i++
      }
    }
    const assignment = atCommand && /^[A-Za-z_][A-Za-z0-9_]*=/.test(text)
    words.push({ text, start, end: Math.min(i, command.length), command: atCommand && !assignment, assignment })
    if (!assignment) atCommand = false
  }
  return words
}

/** True when an argument word is written as a spec says (see `DangerSpec`); `abbreviated`: a prefix of a long option counts. */
export function wordMatchesSpec(word: string, spec: string, abbreviated = false): boolean {
  if (spec === '*') return true
  if (spec === 'NAME=value') return /^[A-Za-z_][A-Za-z0-9_]*=/.test(word)
  if (!spec.startsWith('-')) return word.toLowerCase().includes(spec)
  if (spec.startsWith('--')) {
    const name = word.split('=')[0]!
    if (!name.startsWith('--')) return false
    return name === spec || (abbreviated && name.length >= 5 && spec.startsWith(name))
  }
  if (spec.length === 2) {
    const letter = spec[1]!
    if (word === spec || (word.startsWith(spec) && !word.startsWith('--'))) return true
    // a cluster of one-letter flags (`-sLo`): any letter before a value
    return /^-[A-Za-z]{2,}$/.test(word) && word.includes(letter)
  }
  return word === spec || word.startsWith(`${spec}=`)
}

/** An argument that changes what a command does. */
export interface DangerousArg {
  /** The word as written in the command. */
  word: string
  start: number
  end: number
  /** Its program, and why it is on the list. */
  program: string
  kind: DangerKind
}

/** A program's name from its word (`/usr/bin/find` → `find`, `python3.12` → `python3`). */
function programOf(word: string): string {
  const base = word.replace(/^.*[\\/]/, '').toLowerCase()
  return /^python3?\.\d+$/.test(base) ? base.replace(/\.\d+$/, '') : base.replace(/\.exe$/, '')
}

/** Every argument of a command on the list (a `NAME=value` before a program counts too: it changes what the program does). */
export function dangerousArgs(command: string): DangerousArg[] {
  const found: DangerousArg[] = []
  let program = ''
  for (const w of shellWords(command)) {
    if (w.assignment) {
      found.push({ word: command.slice(w.start, w.end), start: w.start, end: w.end, program: '', kind: 'loads' })
      continue
    }
    if (w.command) {
      program = programOf(w.text)
      continue
    }
    const abbreviated = ABBREVIATING.has(program)
    const hit =
      (DANGEROUS_ARGS[program] ?? []).find(([spec]) => wordMatchesSpec(w.text, spec, abbreviated)) ??
      ANY_PROGRAM.find(([spec]) => wordMatchesSpec(w.text, spec))
    if (hit) found.push({ word: command.slice(w.start, w.end), start: w.start, end: w.end, program, kind: hit[1] })
  }
  return found
}

/** A dangerous argument and why it is on the list, in the operator's words (`--output=x: for git it writes ...`). */
export function dangerWhy(d: DangerousArg): string {
  if (!d.program) return `${d.word}: a variable the program reads (it can load code or configuration from elsewhere)`
  if (d.kind === 'runs' && RUNNERS.includes(d.program)) return `${d.word}: ${d.program} runs what follows it`
  return `${d.word}: for ${d.program} it ${DANGER_WORDS[d.kind]}`
}

/** The first dangerous argument of `command` that lies in one of the `covered` spans (what a rule's `*` matched), or null. */
export function coveredDanger(command: string, covered: readonly (readonly [number, number])[]): DangerousArg | null {
  if (covered.length === 0) return null
  return dangerousArgs(command).find((d) => covered.some(([s, e]) => s < d.end && e > d.start)) ?? null
}
