/**
 * Real git repositories for tests, built with real git commands (through the core's git module)
 * and isolated from the user's git configuration. Commits get fixed authors and dates.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { devNull } from 'node:os'
import { dirname, join } from 'node:path'
import { gitText } from '../../src/core/git/run'
import { tmpDir } from './tmp'

const ISOLATED = ['core.autocrlf=false', 'commit.gpgsign=false', 'tag.gpgsign=false', `core.hooksPath=${devNull}`]

/** A test repository. */
export interface TestRepo {
  dir: string
  /** Runs git (as `who`, at the test clock) and returns stdout without its trailing newline. */
  git(args: string[], who?: string): Promise<string>
  /** Writes files and commits them; returns the commit sha. */
  commit(message: string, files?: Record<string, string>, who?: string): Promise<string>
  /** `git notes --ref=<ref> <add|append> -m <body> <commit>`. */
  note(ref: string, commit: string, body: string | object, mode?: 'add' | 'append', who?: string): Promise<void>
}

/**
 * `git init -b main` in `dir` (a fresh temporary folder by default). Each repository has its own
 * clock, starting at 2026-01-01T00:00:00Z and one minute later at every git call, so the same
 * steps always make the same commits (shas in expected files stay true).
 */
export async function makeRepo(dir: string = tmpDir('muster-git-')): Promise<TestRepo> {
  mkdirSync(dir, { recursive: true })
  let tick = 1_767_225_600
  const run = (args: string[], who = 'tester'): Promise<string> => {
    tick += 60
    const date = `${tick} +0000`
    return gitText(dir, args, {
      config: ISOLATED,
      env: {
        GIT_CONFIG_GLOBAL: devNull,
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_AUTHOR_NAME: who,
        GIT_AUTHOR_EMAIL: `${who}@example.test`,
        GIT_COMMITTER_NAME: who,
        GIT_COMMITTER_EMAIL: `${who}@example.test`,
        GIT_AUTHOR_DATE: date,
        GIT_COMMITTER_DATE: date
      }
    })
  }
  await run(['init', '-q', '-b', 'main'])
  return {
    dir,
    git: run,
    async commit(message, files = {}, who) {
      for (const [rel, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, rel)), { recursive: true })
        writeFileSync(join(dir, rel), text)
      }
      await run(['add', '-A'], who)
      await run(['commit', '-q', '--allow-empty', '-m', message], who)
      return run(['rev-parse', 'HEAD'])
    },
    async note(ref, commit, body, mode = 'add', who) {
      await run(['notes', `--ref=${ref}`, mode, '-m', typeof body === 'string' ? body : JSON.stringify(body), commit], who)
    }
  }
}
