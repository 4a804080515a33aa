/**
 * Git for the demo fleet: repositories with fixed agent authors and dates relative to now, tags,
 * squad notes, and patches produced by `git diff` so the hub's patches really apply. Runs through
 * the core's git module with the user's global/system git config disabled (no signing prompts,
 * no hooks, no CRLF rewriting).
 */
import { promises as fs } from 'node:fs'
import { devNull } from 'node:os'
import { join } from 'node:path'
import { isGitFailure, git, gitText } from '../../git'

/** An author identity for commits and notes. */
export interface GitAuthor {
  name: string
  email: string
}

/** The default author: the operator. */
export const OPERATOR_AUTHOR: GitAuthor = { name: 'JC-Myths', email: 'jc@myths-labs.example' }

/** Settings that make the demo's git independent of the user's configuration. */
const ISOLATED = ['core.autocrlf=false', 'commit.gpgsign=false', 'tag.gpgsign=false', `core.hooksPath=${devNull}`]

function identity(at: Date, author: GitAuthor): Record<string, string> {
  const date = `${Math.floor(at.getTime() / 1000)} +0000`
  return {
    GIT_CONFIG_GLOBAL: devNull,
    GIT_CONFIG_NOSYSTEM: '1',
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
  async git(args: string[], at: Date = this.now, author: GitAuthor = OPERATOR_AUTHOR): Promise<string> {
    return (await gitText(this.dir, args, { config: ISOLATED, env: identity(at, author) })).trim()
  }

  /** `git init -b main` (on git < 2.28, `init` then point HEAD at main). Clear error without git. */
  async init(): Promise<void> {
    try {
      await this.git(['init', '-q', '-b', 'main'])
    } catch (err) {
      if (isGitFailure(err, 'missing')) throw new Error('muster demo needs git on the PATH to create the sample repositories')
      await this.git(['init', '-q'])
      await this.git(['symbolic-ref', 'HEAD', 'refs/heads/main'])
    }
  }

  /** Stages `paths` (all when omitted), commits, and returns the new commit's sha. */
  async commit(message: string, at: Date, author: GitAuthor = OPERATOR_AUTHOR, paths: string[] = ['-A']): Promise<string> {
    await this.git(['add', ...(paths[0] === '-A' ? ['-A'] : ['--', ...paths])], at, author)
    await this.git(['commit', '-q', '-m', message], at, author)
    return this.head()
  }

  /** The current HEAD commit sha. */
  head(): Promise<string> {
    return this.git(['rev-parse', 'HEAD'])
  }

  /** An annotated tag on `commit`. */
  async tag(name: string, commit: string, at: Date): Promise<void> {
    await this.git(['tag', '-a', name, '-m', `Release ${name}`, commit], at)
  }

  /** Adds (or appends, when `append`) a note body under `refs/notes/<ref>` on `commit`; objects are written as one JSON line. */
  async note(
    ref: string,
    commit: string,
    note: object | string,
    at: Date,
    append = false,
    author: GitAuthor = OPERATOR_AUTHOR
  ): Promise<void> {
    const body = typeof note === 'string' ? note : JSON.stringify(note)
    await this.git(['notes', `--ref=${ref}`, append ? 'append' : 'add', '-m', body, commit], at, author)
  }

  /** Feeds `stream` to `git fast-import` (many refs and objects in one process). */
  async fastImport(stream: string): Promise<void> {
    await gitText(this.dir, ['fast-import', '--quiet'], { config: ISOLATED, env: identity(this.now, OPERATOR_AUTHOR), input: stream })
  }

  /**
   * The unified diff that turns `relPath`'s committed content into `edit(content)`, produced by
   * `git diff` and then reverted, so the patch applies with `git apply` at HEAD.
   */
  async diff(relPath: string, edit: (content: string) => string): Promise<string> {
    const file = join(this.dir, relPath)
    const original = await fs.readFile(file, 'utf8')
    await fs.writeFile(file, edit(original))
    try {
      return (
        await git(this.dir, ['diff', '--no-color', '--no-ext-diff', '--', relPath], {
          config: ISOLATED,
          env: identity(this.now, OPERATOR_AUTHOR)
        })
      ).stdout
    } finally {
      await fs.writeFile(file, original)
    }
  }
}
