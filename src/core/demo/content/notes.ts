/**
 * The demo's squad git notes, in atlas's repository, in every real body shape: one object
 * (`git notes add`), appended objects (`git notes append`), sorted JSON Lines (what a
 * `git notes merge -s cat_sort_uniq` of two machines' appends leaves), pretty JSON written by hand.
 * Also what the Notes screen must report: a damaged body, a note in another agent's namespace, an
 * unknown type, a remote without the notes refspec, and an unmerged spike branch holding a decision
 * to promote later and research to archive.
 *
 * The bodies are the bytes those git commands write (the notes tests run the real commands and
 * compare); here they are written with one `git fast-import`, because spawning git for each of
 * ~25 notes would make `muster demo` seconds slower.
 */
import type { DemoContext } from './clock'
import type { DemoRepo } from './git'

/** Bytes of a note after `git notes add` then `append` of each further note. */
export function appendedBody(...notes: object[]): string {
  return notes.map((n) => JSON.stringify(n)).join('\n\n') + '\n'
}

/** Bytes after two machines appended to the same first note and merged with cat_sort_uniq: sorted unique lines. */
export function catSortUniqBody(local: string, remote: string): string {
  const lines = new Set([...local.split('\n'), ...remote.split('\n')].filter((l) => l !== ''))
  return [...lines].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))).join('\n') + '\n'
}

/** A fast-import `data` block. */
const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`

/** Writes atlas's notes: `first` is the initial import, `head` the v0.4.1 release (main's tip). */
export async function writeDemoNotes(ctx: DemoContext, repo: DemoRepo, first: string, head: string): Promise<void> {
  const c = ctx.clock
  const ts = (days: number, h: number, m = 0) => c.isoZ(c.at(days, h, m))
  const epoch = (days: number, h: number, m = 0) => `${Math.floor(c.at(days, h, m).getTime() / 1000)} +0000`
  const who = (id: string, days: number, h: number, m = 0) => `${id} <${id}@agents.muster.local> ${epoch(days, h, m)}`

  const qaFirst = {
    agent: 'linux-gemini',
    timestamp: ts(1, 23, 12),
    type: 'security-review',
    content: 'nightly regression: OOM at 620k docs, no data loss in the FTS5 tables'
  }
  const spikeNotes: Record<string, object> = {
    research: {
      agent: 'home-bot',
      timestamp: ts(0, 10, 20),
      type: 'research',
      topic: 'HNSW in-process',
      findings: { recall_at_10: 0.97, rss_gb: 2.4, build_min: 14 },
      effort_hours: 4,
      archive_on_close: true
    },
    'mac-claude': {
      agent: 'mac-claude',
      timestamp: ts(0, 10, 40),
      type: 'decision',
      decision: 'Adopt HNSW for semantic search after v0.5',
      reasoning: 'Recall 0.97 vs 0.91 justifies 1.3 GB more RSS on the NUC',
      confidence: 'medium',
      promote_to_permanent: true
    }
  }
  /** Each agent's notes: namespace -> commit -> body; `spike` stands for the spike branch's commit (mark :1). */
  const refs: Record<string, { by: string; at: [number, number, number]; bodies: Record<string, string> }> = {
    'home-bot': {
      by: 'home-bot',
      at: [1, 16, 0],
      bodies: {
        [first]: appendedBody({
          agent: 'home-bot',
          timestamp: ts(14, 10, 20),
          type: 'progress',
          content: 'imported indexer skeleton; FTS5 schema v1'
        }),
        [head]: appendedBody(
          {
            agent: 'home-bot',
            timestamp: ts(1, 15, 10),
            type: 'decision',
            decision: 'indexAll flushes each batch to SQLite as it fills (S050)',
            reasoning: 'Buffering 1M docs peaks at 6.3 GB RSS; streaming stays near 1.1 GB',
            alternatives_considered: ['Raise --max-old-space-size to 8192', 'Switch to an HNSW vector index first'],
            confidence: 'high',
            promote_to_permanent: true
          },
          { agent: 'home-bot', timestamp: ts(1, 16), type: 'progress', content: 'repro script scripts/index-all.mjs committed' }
        )
      }
    },
    research: {
      by: 'win-codex',
      at: [0, 10, 20],
      bodies: {
        [first]: appendedBody({
          agent: 'win-codex',
          timestamp: ts(13, 16),
          type: 'research',
          topic: 'FTS5 tokenizer for CJK',
          findings: { unicode61: 'splits per character', icu: 'not in the bundled SQLite' },
          effort_hours: 1.5,
          archive_on_close: false
        }),
        [head]: appendedBody(
          {
            agent: 'home-bot',
            timestamp: ts(0, 6),
            type: 'research',
            content: 'HNSW vs IVF memory estimate',
            topic: 'vector-index',
            findings: { hnsw_rss_gb: 2.4, ivf_rss_gb: 1.1, recall_at_10: { hnsw: 0.97, ivf: 0.91 } },
            effort_hours: 3,
            archive_on_close: true
          },
          { agent: 'win-codex', timestamp: ts(0, 8), type: 'benchmark', content: 'cold-cache query p95 38 ms on 1M docs' }
        ),
        spike: appendedBody(spikeNotes.research!)
      }
    },
    'linux-gemini': {
      by: 'linux-gemini',
      at: [0, 7, 20],
      bodies: {
        // someone else's progress landed in the QA agent's namespace
        [first]: appendedBody({
          agent: 'home-bot',
          timestamp: ts(12, 2, 10),
          type: 'progress',
          content: 'nightly run wrote its progress into the QA namespace'
        }),
        // the build box and the laptop both appended; the push conflict was merged with cat_sort_uniq
        [head]: catSortUniqBody(
          appendedBody(qaFirst, {
            agent: 'linux-gemini',
            timestamp: ts(0, 6, 30),
            type: 'progress',
            content: 'build box: re-ran with streaming batches, RSS 1.1 GB'
          }),
          appendedBody(qaFirst, {
            agent: 'linux-gemini',
            timestamp: ts(0, 7, 5),
            type: 'progress',
            content: 'laptop: 1M docs indexed in 9 min 40 s'
          })
        )
      }
    },
    'mac-claude': {
      by: 'mac-claude',
      at: [0, 10, 40],
      bodies: {
        // a second review cut off mid-write: the first note survives, the rest cannot be parsed
        [first]:
          appendedBody({
            agent: 'mac-claude',
            timestamp: ts(12, 21),
            type: 'review',
            content: 'schema review: add a covering index on (path, mtime)'
          }) + `\n{"agent":"mac-claude","timestamp":"${ts(12, 21, 40)}","type":"review","content":"second pass interrupted\n`,
        // pretty-printed JSON written by hand
        [head]:
          JSON.stringify(
            {
              agent: 'mac-claude',
              timestamp: ts(0, 9, 15),
              type: 'review',
              content: 'S050 fix reviewed: batch.ts streams, tests cover the flush at size',
              verdict: 'approve',
              files: ['src/indexer/batch.ts']
            },
            null,
            2
          ) + '\n',
        spike: appendedBody(spikeNotes['mac-claude']!)
      }
    }
  }

  const hnsw = '# HNSW spike\n\nrecall@10 0.97, RSS 2.4 GB at 1M docs\n'
  let stream = `commit refs/heads/spike/hnsw\nmark :1\nauthor ${who('home-bot', 0, 10, 5)}\ncommitter ${who('home-bot', 0, 10, 5)}\n${data('spike: HNSW index prototype')}from ${head}\nM 100644 inline bench/hnsw.md\n${data(hnsw)}\n`
  for (const [ns, r] of Object.entries(refs)) {
    stream += `commit refs/notes/squad/${ns}\ncommitter ${who(r.by, ...r.at)}\n${data("Notes added by 'git notes append'")}`
    for (const [commit, body] of Object.entries(r.bodies)) stream += `N inline ${commit === 'spike' ? ':1' : commit}\n${data(body)}`
    stream += '\n'
  }
  await repo.fastImport(stream)
  // a remote that does not fetch notes yet (the protocol's one-time setup is missing)
  await repo.git(['remote', 'add', 'origin', 'https://git.example.com/myths-labs/atlas.git'])
}

/** atlas's `.squad/decisions.md`, kept by hand before Muster promoted anything. */
export function demoDecisions({ clock: c }: DemoContext): string {
  return `# Decisions

> Long-lived decisions for ATLAS. Agents append here; flagged git notes are promoted after a merge.

### ${c.isoZ(c.at(20, 11, 0))}: SQLite FTS5 over Elasticsearch

**By:** mac-claude

**What:** Full-text search runs on SQLite FTS5 inside the indexer process.

**Why:** One file to back up on the home NUC; no JVM.
`
}
