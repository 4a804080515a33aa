/**
 * Git for the demo fleet: repositories with fixed agent authors and dates relative to now, tags,
 * squad notes, and patches produced by `git diff` so the hub's patches really apply. Runs with
 * the user's global/system git config disabled (no signing prompts, no hooks, no CRLF rewriting).
 */
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { devNull } from 'node:os'
import { join } from 'node:path'

/** An author identity for commits and notes. */
export interface GitAuthor {
  name: string
  email: string
}

/** The default author: the operator. */
export const OPERATOR_AUTHOR: GitAuthor = { name: 'JC-Myths', email: 'jc@myths-labs.example' }

function gitEnv(at: Date, author: GitAuthor): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  // Drop inherited GIT_* (e.g. GIT_DIR from a hook) so every command targets the demo repo.
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_')) env[k] = v
  const date = `${Math.floor(at.getTime() / 1000)} +0000`
  return {
    ...env,
    GIT_CONFIG_GLOBAL: devNull,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_AUTHOR_NAME: author.name,
    GIT_AUTHOR_EMAIL: author.email,
    GIT_COMMITTER_NAME: author.name,
    GIT_COMMITTER_EMAIL: author.email,
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_DATE: date
  }
}

/** A demo repository at `dir`. */
export class DemoRepo {
  constructor(
    readonly dir: string,
    private readonly now: Date
  ) {}

  /** Runs git in the repo and returns trimmed stdout. */
  git(args: string[], at: Date = this.now, author: GitAuthor = OPERATOR_AUTHOR): string {
    const out = execFileSync(
      'git',
      ['-c', 'core.autocrlf=false', '-c', 'commit.gpgsign=false', '-c', 'tag.gpgsign=false', '-c', 'core.hooksPath=' + devNull, ...args],
      { cwd: this.dir, env: gitEnv(at, author), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }
    )
    return out.trim()
  }

  /** `git init -b main` (on git < 2.28, `init` then point HEAD at main). Clear error without git. */
  init(): void {
    try {
      this.git(['init', '-q', '-b', 'main'])
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new Error('muster demo needs git on the PATH to create the sample repositories')
      }
      this.git(['init', '-q'])
      this.git(['symbolic-ref', 'HEAD', 'refs/heads/main'])
    }
  }

  /** Stages `paths` (all when omitted), commits, and returns the new commit's sha. */
  commit(message: string, at: Date, author: GitAuthor = OPERATOR_AUTHOR, paths: string[] = ['-A']): string {
    this.git(['add', ...(paths[0] === '-A' ? ['-A'] : ['--', ...paths])], at, author)
    this.git(['commit', '-q', '-m', message], at, author)
    return this.head()
  }

  /** The current HEAD commit sha. */
  head(): string {
    return this.git(['rev-parse', 'HEAD'])
  }

  /** An annotated tag on `commit`. */
  tag(name: string, commit: string, at: Date): void {
    this.git(['tag', '-a', name, '-m', `Release ${name}`, commit], at)
  }

  /** Adds (or appends, when `append`) a JSON note under `refs/notes/<ref>` on `commit`. */
  note(ref: string, commit: string, note: object, at: Date, append = false): void {
    this.git(['notes', `--ref=${ref}`, append ? 'append' : 'add', '-m', JSON.stringify(note), commit], at)
  }

  /**
   * The unified diff that turns `relPath`'s committed content into `edit(content)`, produced by
   * `git diff` and then reverted, so the patch applies with `git apply` at HEAD.
   */
  diff(relPath: string, edit: (content: string) => string): string {
    const file = join(this.dir, relPath)
    const original = readFileSync(file, 'utf8')
    writeFileSync(file, edit(original))
    try {
      return execFileSync('git', ['-c', 'core.autocrlf=false', 'diff', '--no-color', '--no-ext-diff', '--', relPath], {
        cwd: this.dir,
        env: gitEnv(this.now, OPERATOR_AUTHOR),
        encoding: 'utf8'
      })
    } finally {
      writeFileSync(file, original)
    }
  }
}
