/**
 * `muster demo`: creates a realistic sample fleet so the dashboard is never empty. Three projects
 * with MUSE role files (every real directive and L0 form), memory, git repositories (tags, squad
 * notes), and a MemPalace hub with a few hundred valid events written by Muster's own hub writer.
 * Registers nothing: the caller decides what to do with the projects.
 */
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { createHub } from '../hub/schema'
import { makeDirSync } from '../make-dir'
import { atlasFiles, atlasSource } from './demo-content/atlas'
import { DemoClock, type DemoContext, type DemoFiles } from './demo-content/clock'
import { dyaFiles, dyaSource } from './demo-content/dya'
import { DemoRepo, type GitAuthor } from './demo-content/git'
import { boardSteps, chatterSteps, presenceSteps, type Step } from './demo-content/hub-chatter'
import { approvalSteps, taskSteps, type RepoFacts } from './demo-content/hub-tasks'
import { memoryFiles } from './demo-content/memory'
import { museFiles } from './demo-content/muse'
import { museBuild } from './demo-content/muse-build'
import { demoDecisions, writeDemoNotes } from './demo-content/notes'
import { museGrowth, museQa } from './demo-content/muse-roles'

/** The file that marks a folder as a Muster demo (so it may be re-created in place). */
export const DEMO_MARKER = '.muster-demo'

/** What `createDemoFleet` made. */
export interface DemoFleet {
  /** Absolute demo folder. */
  dir: string
  /** The projects (folders holding `.muse/`), hub project first. */
  projects: { name: string; path: string }[]
  /** The MemPalace palace dir (holds `logstream.sqlite3` and `replica.json`). */
  hub: string
}

/** Options of `createDemoFleet`. */
export interface DemoOptions {
  /** The instant everything is dated relative to (default: now). */
  now?: Date
}

const agent = (id: string): GitAuthor => ({ name: id, email: `${id}@agents.muster.local` })

/** Creates `dir`, or empties a previous demo; refuses any other non-empty folder. */
function prepareDir(root: string): void {
  if (!existsSync(root)) {
    makeDirSync(root)
    return
  }
  if (!statSync(root).isDirectory()) throw new Error(`cannot create the demo in ${root}: it exists and is not a folder`)
  const entries = readdirSync(root)
  if (entries.length === 0) return
  const marker = join(root, DEMO_MARKER)
  if (!existsSync(marker) || !statSync(marker).isFile()) {
    throw new Error(
      `refusing to create the demo in ${root}: the folder is not empty and is not a previous Muster demo (no ${DEMO_MARKER} file); choose an empty or new folder`
    )
  }
  for (const entry of entries) rmSync(join(root, entry), { recursive: true, force: true })
}

function writeFiles(base: string, files: DemoFiles): void {
  for (const [rel, text] of Object.entries(files)) {
    const file = join(base, rel)
    makeDirSync(dirname(file))
    writeFileSync(file, text)
  }
}

/** Writes one project: source tree committed first, then MUSE files and memory, tagged. */
async function buildProject(
  ctx: DemoContext,
  name: 'muse' | 'dya' | 'atlas',
  source: DemoFiles,
  rest: DemoFiles,
  release: { tag: string; message: string; author: string }
): Promise<DemoRepo> {
  const c = ctx.clock
  const repo = new DemoRepo(ctx.paths[name], c.now)
  makeDirSync(repo.dir)
  writeFiles(repo.dir, source)
  await repo.init()
  await repo.commit(`chore: initial import of ${name}`, c.at(14, 10, 0))
  writeFiles(repo.dir, { ...rest, ...memoryFiles(ctx, name) })
  const released = await repo.commit(release.message, c.at(6, 13, 30), agent(release.author))
  await repo.tag(release.tag, released, c.at(6, 13, 42))
  return repo
}

/** Builds the three projects and returns what the hub stories need from their repositories. */
async function buildProjects(ctx: DemoContext): Promise<RepoFacts> {
  const c = ctx.clock
  const museRoles = { ...museFiles(ctx), '.muse/build.md': museBuild(ctx), '.muse/growth.md': museGrowth(ctx), '.muse/qa.md': museQa(ctx) }
  const museSource: DemoFiles = {
    'README.md': '# MUSE\n\nMarkdown-only AI coding OS: role files, directives, memory.\n',
    'CHANGELOG.md': '# Changelog\n\n## [2.22.0]\n### Added\n- Memory Loss Prevention (5-layer SOP fixes)\n'
  }
  // three independent repositories: built side by side (the demo's cost is mostly git processes)
  const [muse, dya, atlas] = await Promise.all([
    (async () => {
      const repo = await buildProject(ctx, 'muse', museSource, museRoles, { tag: 'v2.22.0', message: 'feat: v2.22.0 Memory Loss Prevention', author: 'mac-claude' })
      writeFiles(repo.dir, { 'README.md': museSource['README.md'] + '\n## Hub\n\nAgents coordinate through a MemPalace hub (S048).\n' })
      await repo.commit('docs: S048 hub section in README', c.at(1, 18, 20), agent('mac-claude'))
      return repo
    })(),
    (async () => {
      const dyaRest = Object.fromEntries(Object.entries(dyaFiles(ctx)).filter(([k]) => !(k in dyaSource())))
      return buildProject(ctx, 'dya', dyaSource(), dyaRest, { tag: 'v1.3.0', message: 'feat: v1.3.0 健康证明 GA', author: 'win-codex' })
    })(),
    (async () => {
      const atlasRest = { ...Object.fromEntries(Object.entries(atlasFiles(ctx)).filter(([k]) => !(k in atlasSource()))), '.squad/decisions.md': demoDecisions(ctx) }
      const repo = await buildProject(ctx, 'atlas', atlasSource(), atlasRest, { tag: 'v0.4.1', message: 'fix: v0.4.1 FTS5 batch size 5000', author: 'home-bot' })
      await writeDemoNotes(ctx, repo, await repo.git(['rev-list', '--max-parents=0', 'HEAD']), await repo.head())
      return repo
    })()
  ])
  const atlasHead = await atlas.head()

  const fixPatch = await dya.diff('src/health/certificate.ts', (s) =>
    replaceOnce(s, 'return cert.signature.length > 0\n', 'return cert.signature.length > 0 && now < cert.expiresAt\n')
  )
  const streamPatch = await atlas.diff('src/indexer/batch.ts', (s) =>
    replaceOnce(
      s,
      '  const all: Doc[] = []\n  for await (const doc of docs) all.push(doc)\n  for (let i = 0; i < all.length; i += size) await write(all.slice(i, i + size))\n  return all.length\n',
      '  let batch: Doc[] = []\n  let total = 0\n  for await (const doc of docs) {\n    batch.push(doc)\n    total++\n    if (batch.length >= size) {\n      await write(batch)\n      batch = []\n    }\n  }\n  if (batch.length) await write(batch)\n  return total\n'
    )
  )
  return { muse: { head: await muse.head() }, dya: { head: await dya.head(), fixPatch }, atlas: { head: atlasHead, streamPatch } }
}

function replaceOnce(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`demo patch anchor not found: ${JSON.stringify(from.slice(0, 40))}`)
  return text.replace(from, to)
}

/** Creates the hub and writes every story, in time order, in one transaction. */
function buildHub(ctx: DemoContext, palace: string, repos: RepoFacts): void {
  const hub = createHub(palace)
  try {
    const t = { db: hub.db, replicaId: hub.replicaId }
    const steps: Step[] = [
      ...presenceSteps(ctx.clock, t),
      ...chatterSteps(ctx.clock, t),
      ...boardSteps(ctx.clock, t),
      ...taskSteps(ctx, t, repos),
      ...approvalSteps(ctx, t)
    ].sort((a, b) => a.at.getTime() - b.at.getTime())
    hub.db.transaction(() => {
      for (const s of steps) s.run()
    }).immediate()
  } finally {
    hub.close()
  }
}

/**
 * Creates the demo fleet in `dir` (created if missing; a previous demo, marked by `.muster-demo`,
 * is replaced; any other non-empty folder is refused with an Error). Everything is dated relative
 * to `opts.now`. Returns the folder, the projects and the hub palace dir.
 */
export async function createDemoFleet(dir: string, opts: DemoOptions = {}): Promise<DemoFleet> {
  const root = resolve(dir)
  prepareDir(root)
  const now = opts.now ?? new Date()
  writeFileSync(join(root, DEMO_MARKER), JSON.stringify({ muster_demo: 1, created_at: now.toISOString() }) + '\n')
  const ctx: DemoContext = {
    clock: new DemoClock(now),
    root,
    paths: { muse: join(root, 'muse'), dya: join(root, 'dya'), atlas: join(root, 'atlas') }
  }
  const repos = await buildProjects(ctx)
  const hub = join(root, 'hub')
  buildHub(ctx, hub, repos)
  return {
    dir: root,
    projects: (['muse', 'dya', 'atlas'] as const).map((name) => ({ name, path: ctx.paths[name] })),
    hub
  }
}
