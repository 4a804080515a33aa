/**
 * A Muster home with a real hub and a real git repository registered as a project, for the patch
 * tests: agents submit patches through the hub service, the operator verifies and applies them
 * through the patch service, and the tests look at the hub, the worktree and the audit.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { HubEventEnvelope, PushedEvent } from '../../src/shared/api'
import { ProjectRegistry } from '../../src/core/fleet/registry'
import { openStateDb } from '../../src/core/fleet/state-db'
import { gitBytes } from '../../src/core/git/run'
import { HubService } from '../../src/core/hub/hub-service'
import { PatchService } from '../../src/core/patches/patch-service'
import { openDatabase, type Db } from '../../src/core/sqlite'
import { makeRepo, type TestRepo } from './git-repo'
import { tmpDir } from './tmp'

/** The operator's agent id in these tests. */
export const OPERATOR = 'desk-op'

/** One test's world. */
export interface PatchWorld {
  home: string
  db: Db
  palace: string
  hubs: HubService
  patches: PatchService
  repo: TestRepo
  base: string
  pushed: PushedEvent[]
  /** An agent publishes `content` as a patch for the `demo` project; returns the patch.ready id. */
  submit(
    content: string,
    extra?: { body?: string; metadata?: Record<string, unknown>; correlation_id?: string; branch?: string; base_commit?: string }
  ): Promise<string>
  /** Acks addressed to a patch, oldest first. */
  acksOf(id: string): Promise<HubEventEnvelope[]>
  /** The repository's `git status --porcelain` (empty = clean). */
  status(): Promise<string>
  /** Changes an artifact's stored content behind the hub's back (what a tamperer does). */
  tamper(artifactId: string, content: string): void
  close(): Promise<void>
}

/** The files of the test project at its base commit. */
export const BASE_FILES: Record<string, string> = {
  '.muse/build.md': '<!-- L0: v1 | demo | ok -->\n# build\n',
  'src/app.txt': 'alpha\nbeta\ngamma\ndelta\n',
  'src/keep.txt': 'untouched\n',
  'test.sh':
    '#!/bin/sh\necho "checking src/app.txt"\ngrep -q "^BETA$" src/app.txt && echo "ok 1 - beta is loud" || { echo "not ok 1 - beta is quiet"; exit 1; }\n'
}

/** Builds the world: home, hub, repository `demo` registered as a project. */
export async function patchWorld(): Promise<PatchWorld> {
  const home = tmpDir('muster-home-')
  const db = openStateDb(home)
  const projects = new ProjectRegistry(db)
  const pushed: PushedEvent[] = []
  const hubs = new HubService({ state: db, projects, operator: () => OPERATOR, env: {} })
  const patches = new PatchService({ hubs, db, projects, operator: () => OPERATOR, emit: (e) => pushed.push(e) })
  const palace = join(tmpDir('muster-hub-'), 'palace')
  await hubs.choose({ palace }).hub.create()
  const repo = await makeRepo(join(tmpDir('muster-repo-'), 'demo'))
  const base = await repo.commit('base', BASE_FILES)
  await projects.add(repo.dir, 'demo')
  return {
    home,
    db,
    palace,
    hubs,
    patches,
    repo,
    base,
    pushed,
    async submit(content, extra = {}) {
      const r = await hubs.submitPatch({
        palace,
        content,
        from_agent: 'win-codex',
        to_agent: OPERATOR,
        stream: 'project/demo',
        correlation_id: extra.correlation_id ?? `task_${Math.random().toString(16).slice(2, 10)}`,
        branch: extra.branch ?? 'main',
        base_commit: extra.base_commit ?? base,
        body: extra.body ?? 'patch ready',
        metadata: extra.metadata ?? null
      })
      return r.event.id
    },
    async acksOf(id) {
      const page = await hubs.list({ palace, type: 'event.ack', order: 'asc', limit: 500 })
      return page.events.filter((e) => e.metadata.ack_of === id)
    },
    async status() {
      return (await gitBytes(repo.dir, ['status', '--porcelain', '--untracked-files=all'])).stdout.toString()
    },
    tamper(artifactId, content) {
      const hubDb = openDatabase(join(palace, 'logstream.sqlite3'))
      try {
        hubDb.prepare('UPDATE artifacts SET content = ? WHERE id = ?').run(content, artifactId)
      } finally {
        hubDb.close()
      }
    },
    async close() {
      await patches.close()
      await hubs.close()
      db.close()
    }
  }
}

/**
 * The patch `git diff` prints for `edits` (path -> new content, null = delete) on top of HEAD;
 * the worktree is put back afterwards.
 */
export async function makePatch(repo: TestRepo, edits: Record<string, string | null>): Promise<string> {
  for (const [path, content] of Object.entries(edits)) {
    if (content === null) rmSync(join(repo.dir, path))
    else {
      mkdirSync(dirname(join(repo.dir, path)), { recursive: true })
      writeFileSync(join(repo.dir, path), content)
    }
  }
  await repo.git(['add', '-A'])
  const diff = (await gitBytes(repo.dir, ['diff', '--cached', '--binary', '--no-color'])).stdout.toString('utf8')
  await repo.git(['reset', '-q', '--hard'])
  await repo.git(['clean', '-q', '-fd'])
  return diff
}
