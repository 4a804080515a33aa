/**
 * `muster demo`: creates a realistic sample fleet so the dashboard is never empty. Three projects
 * with MUSE role files (every real directive and L0 form), memory, git repositories (tags, squad
 * notes), and a MemPalace hub with a few hundred valid events written by Muster's own hub writer.
 * Registers nothing: the caller decides what to do with the projects.
 */
import { promises as fs, type Stats } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { createHub } from '../hub/store'
import { makeDir } from '../make-dir'
import { atlasFiles, atlasSource } from './content/atlas'
import { DemoClock, type DemoContext, type DemoFiles } from './content/clock'
import type { DecisionSigner } from '../approvals'
import { dyaFiles, dyaSource } from './content/dya'
import { DemoRepo, type GitAuthor } from './content/git'
import { boardSteps, chatterSteps, presenceSteps, type Step } from './content/hub-chatter'
import { approvalSteps } from './content/hub-approvals'
import { taskSteps, type RepoFacts } from './content/hub-tasks'
import { memoryFiles } from './content/memory'
import { museFiles } from './content/muse'
import { museBuild } from './content/muse-build'
import { demoDecisions, writeDemoNotes } from './content/notes'
import { museGrowth, museQa } from './content/muse-roles'

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
  /** Signs the operator's decisions in the demo hub (without it they show as forged). */
  signer?: DecisionSigner
}

const agent = (id: string): GitAuthor => ({ name: id, email: `${id}@agents.muster.local` })

const statOrNull = (path: string): Promise<Stats | null> => fs.stat(path).catch(() => null)

/** Creates `dir`, or empties a previous demo; refuses any other non-empty folder. */
async function prepareDir(root: string): Promise<void> {
  const st = await statOrNull(root)
  if (!st) {
    await makeDir(root)
    return
  }
  if (!st.isDirectory()) throw new Error(`cannot create the demo in ${root}: it exists and is not a folder`)
  const entries = await fs.readdir(root)
  if (entries.length === 0) return
  if (!(await statOrNull(join(root, DEMO_MARKER)))?.isFile()) {
    throw new Error(
      `refusing to create the demo in ${root}: the folder is not empty and is not a previous Muster demo (no ${DEMO_MARKER} file); choose an empty or new folder`
    )
  }
  for (const entry of entries) await fs.rm(join(root, entry), { recursive: true, force: true })
}

async function writeFiles(base: string, files: DemoFiles): Promise<void> {
  for (const [rel, text] of Object.entries(files)) {
    const file = join(base, rel)
    await makeDir(dirname(file))
    await fs.writeFile(file, text)
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
  await makeDir(repo.dir)
  await writeFiles(repo.dir, source)
  await repo.init()
  await repo.commit(`chore: initial import of ${name}`, c.at(14, 10, 0))
  await writeFiles(repo.dir, { ...rest, ...memoryFiles(ctx, name) })
  const released = await repo.commit(release.message, c.at(6, 13, 30), agent(release.author))
  await repo.tag(release.tag, released, c.at(6, 13, 42))
  return repo
}

/** MUSE: role files in every form, then a README commit after the release. */
async function buildMuse(ctx: DemoContext): Promise<RepoFacts['muse']> {
  const c = ctx.clock
  const museRoles = { ...museFiles(ctx), '.muse/build.md': museBuild(ctx), '.muse/growth.md': museGrowth(ctx), '.muse/qa.md': museQa(ctx) }
  const museSource: DemoFiles = {
    'README.md': '# MUSE\n\nMarkdown-only AI coding OS: role files, directives, memory.\n',
    'CHANGELOG.md': '# Changelog\n\n## [2.22.0]\n### Added\n- Memory Loss Prevention (5-layer SOP fixes)\n'
  }
  const muse = await buildProject(ctx, 'muse', museSource, museRoles, {
    tag: 'v2.22.0',
    message: 'feat: v2.22.0 Memory Loss Prevention',
    author: 'mac-claude'
  })
  await writeFiles(muse.dir, { 'README.md': museSource['README.md'] + '\n## Hub\n\nAgents coordinate through a MemPalace hub (S048).\n' })
  return { head: await muse.commit('docs: S048 hub section in README', c.at(1, 18, 20), agent('mac-claude')) }
}

/** The test command of the demo's dya project (its clean patch passes it). */
export const DEMO_DYA_TEST = 'sh tests/expiry.sh'

/** dya: released, with the certificate fix a task's patch carries. */
async function buildDya(ctx: DemoContext): Promise<RepoFacts['dya']> {
  const dyaRest = Object.fromEntries(Object.entries(dyaFiles(ctx)).filter(([k]) => !(k in dyaSource())))
  const dya = await buildProject(ctx, 'dya', dyaSource(), dyaRest, {
    tag: 'v1.3.0',
    message: 'feat: v1.3.0 健康证明 GA',
    author: 'win-codex'
  })
  const fixPatch = await dya.diff('src/health/certificate.ts', (s) =>
    replaceOnce(s, 'return cert.signature.length > 0\n', 'return cert.signature.length > 0 && now < cert.expiresAt\n')
  )
  // written against an older certificate.ts (label() said 'valid'): git apply --check refuses it
  const labelPatch = await dya.diff('src/health/certificate.ts', (s) =>
    replaceOnce(
      s,
      "  return isValid(cert) ? '有效' : '已过期'\n",
      "  return isValid(cert) ? `有效 (至 ${new Date(cert.expiresAt).toISOString().slice(0, 10)})` : '已过期'\n"
    )
  )
  const stalePatch = replaceOnce(
    labelPatch,
    "-  return isValid(cert) ? '有效' : '已过期'\n",
    "-  return isValid(cert) ? 'valid' : 'expired'\n"
  )
  return { head: await dya.head(), fixPatch, stalePatch }
}

/** atlas: released, with squad notes on its head and the streaming fix a task's patch carries. */
async function buildAtlas(ctx: DemoContext): Promise<RepoFacts['atlas']> {
  const atlasRest = {
    ...Object.fromEntries(Object.entries(atlasFiles(ctx)).filter(([k]) => !(k in atlasSource()))),
    '.squad/decisions.md': demoDecisions(ctx)
  }
  const atlas = await buildProject(ctx, 'atlas', atlasSource(), atlasRest, {
    tag: 'v0.4.1',
    message: 'fix: v0.4.1 FTS5 batch size 5000',
    author: 'home-bot'
  })
  const atlasHead = await atlas.head()
  await writeDemoNotes(ctx, atlas, await atlas.git(['rev-list', '--max-parents=0', 'HEAD']), atlasHead)

  const streamPatch = await atlas.diff('src/indexer/batch.ts', (s) =>
    replaceOnce(
      s,
      '  const all: Doc[] = []\n  for await (const doc of docs) all.push(doc)\n  for (let i = 0; i < all.length; i += size) await write(all.slice(i, i + size))\n  return all.length\n',
      '  let batch: Doc[] = []\n  let total = 0\n  for await (const doc of docs) {\n    batch.push(doc)\n    total++\n    if (batch.length >= size) {\n      await write(batch)\n      batch = []\n    }\n  }\n  if (batch.length) await write(batch)\n  return total\n'
    )
  )
  return { head: atlasHead, streamPatch }
}

/**
 * Builds the three projects (independent repositories, so side by side: git dominates the demo's
 * time) and returns what the hub stories need from them.
 */
async function buildProjects(ctx: DemoContext): Promise<RepoFacts> {
  const builds = [buildMuse(ctx), buildDya(ctx), buildAtlas(ctx)] as const
  await Promise.allSettled(builds) // a failure is reported only once nothing is still writing
  const [muse, dya, atlas] = await Promise.all(builds)
  return { muse, dya, atlas }
}

function replaceOnce(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`demo patch anchor not found: ${JSON.stringify(from.slice(0, 40))}`)
  return text.replace(from, to)
}

/**
 * Longest the hub build holds the event loop at once (ms). `demo.create` is served over HTTP and
 * the ~400 story steps take about half a second of synchronous SQLite in all: written in slices of
 * this length, one transaction each, with a turn of the event loop between them.
 */
const HUB_SLICE_MS = 20

/** Creates the hub and writes every story, in time order, a slice of steps per transaction. */
async function buildHub(ctx: DemoContext, palace: string, repos: RepoFacts): Promise<void> {
  const hub = createHub(palace)
  try {
    // Demo data: a commit per slice need not wait for the disk (WAL + NORMAL is crash-safe anyway).
    hub.db.pragma('synchronous = NORMAL')
    const t = { db: hub.db, replicaId: hub.replicaId }
    const steps: Step[] = [
      ...presenceSteps(ctx.clock, t),
      ...chatterSteps(ctx.clock, t),
      ...boardSteps(ctx.clock, t),
      ...taskSteps(ctx, t, repos),
      ...approvalSteps(ctx, t)
    ].sort((a, b) => a.at.getTime() - b.at.getTime())
    let next = 0
    while (next < steps.length) {
      const started = performance.now()
      hub.db
        .transaction(() => {
          do steps[next++]!.run()
          while (next < steps.length && performance.now() - started < HUB_SLICE_MS)
        })
        .immediate()
      await new Promise((resolve) => setImmediate(resolve))
    }
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
  await prepareDir(root)
  const now = opts.now ?? new Date()
  await fs.writeFile(join(root, DEMO_MARKER), JSON.stringify({ muster_demo: 1, created_at: now.toISOString() }) + '\n')
  const ctx: DemoContext = {
    clock: new DemoClock(now),
    root,
    paths: { muse: join(root, 'muse'), dya: join(root, 'dya'), atlas: join(root, 'atlas') },
    signer: opts.signer
  }
  const repos = await buildProjects(ctx)
  const hub = join(root, 'hub')
  await buildHub(ctx, hub, repos)
  return {
    dir: root,
    projects: (['muse', 'dya', 'atlas'] as const).map((name) => ({ name, path: ctx.paths[name] })),
    hub
  }
}
