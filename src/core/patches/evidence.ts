/**
 * The ack body of an apply: what was applied where, `git apply --check`'s output, the test
 * command with its outcome and the tail of its output, and the resulting HEAD. Plain text an
 * agent can read, well under the hub's 256 KiB body limit.
 */
import type { ApplyRun } from '../../shared/api'

/** Lines of test output quoted in the evidence. */
export const EVIDENCE_TEST_LINES = 40
/** Characters of any one output quoted in the evidence (check output, test tail). */
const EVIDENCE_OUTPUT_CHARS = 8000

/** The last `lines` lines of `text` (at most `EVIDENCE_OUTPUT_CHARS` characters), without a trailing newline. */
export function lastLines(text: string, lines: number): string {
  const all = text.replace(/\n+$/, '').split('\n')
  const tail = all.slice(-lines).join('\n')
  return tail.length > EVIDENCE_OUTPUT_CHARS ? '…' + tail.slice(-EVIDENCE_OUTPUT_CHARS) : tail
}

/** Short human words for a test status. */
const TEST_WORDS: Record<NonNullable<ApplyRun['test']>['status'], string> = {
  running: 'still running',
  passed: 'passed',
  failed: 'FAILED',
  'timed-out': 'TIMED OUT',
  cancelled: 'cancelled by the operator',
  error: 'could not start'
}

/** The evidence text of a finished run. */
export function evidenceText(run: ApplyRun, sha256: string | null, worktree: string | null): string {
  const lines: string[] = []
  const verdict = run.outcome === 'applied' ? 'applied' : 'failed'
  lines.push(`Muster apply: ${verdict}${run.reason ? ` — ${run.reason}` : ''}`)
  lines.push(
    `patch ${run.event_id}${run.artifact_id ? ` · artifact ${run.artifact_id}` : ''}${sha256 ? ` · sha256 ${sha256} verified` : ''}`
  )
  lines.push(`project ${run.project} · HEAD before ${run.head_before?.slice(0, 12) ?? 'none'}`)
  if (run.check) {
    lines.push('', `$ ${run.check.command} (exit ${run.check.code})`)
    const out = lastLines(run.check.output, 60)
    if (out) lines.push(out)
  }
  lines.push(
    '',
    run.applied ? 'git apply: applied to the worktree (not committed)' : 'git apply: not applied (the repository is untouched)'
  )
  if (run.test) {
    const secs = run.test.duration_ms === null ? '' : ` in ${(run.test.duration_ms / 1000).toFixed(1)} s`
    const exit = run.test.exit_code === null ? '' : `, exit ${run.test.exit_code}`
    lines.push('', `$ ${run.test.command}: ${TEST_WORDS[run.test.status]}${exit}${secs}`)
    const tail = lastLines(run.test.tail, EVIDENCE_TEST_LINES)
    if (tail) lines.push(`--- last ${Math.min(EVIDENCE_TEST_LINES, tail.split('\n').length)} lines ---`, tail, '---')
  } else if (run.applied) lines.push('', 'tests: none configured')
  lines.push('', `resulting HEAD: ${run.head_after?.slice(0, 12) ?? 'none'}${worktree ? ` · worktree: ${worktree}` : ''}`)
  return lines.join('\n') + '\n'
}
