/**
 * The session hook's side of receipts: the markers a session's hook took (one call's, on the
 * harness's own event after it; every one left, on the session's end) recorded as receipts in
 * their hubs, exactly once: each marker is settled once its receipt is recorded, and put back
 * when its hub could not take it, so a later event tries again (`recordReceipt` never doubles a
 * stage). Run by the session hook's detached worker, never in the harness's own wait.
 */
import type { ReceiptStage } from '../../shared/contract/hub-vocabulary'
import type { HubPort } from '../hub'
import { recordReceipt } from './approval-receipts'
import { takeSessionMarkers, type ReceiptMarker, type TakenMarker } from './receipt-markers'
import type { SessionEnd } from './session-lifecycle'

/** A hub a marker's receipt goes to (`marker.hub`/`palace` as the approve-hook was told); throws when it cannot be reached. */
export type ReceiptHubs = (m: ReceiptMarker) => Promise<Pick<HubPort, 'append' | 'list'>>

/** What the receipts say besides their stage. */
export interface ReceiptWords {
  hook_event: string
  /** The agent whose hooks report it. */
  from_agent: string
  reason?: string
}

/** Records a receipt per taken marker (`stageOf` each); returns how many were recorded (a duplicate counts as none). */
export async function recordTaken(
  taken: readonly TakenMarker[],
  stageOf: (m: ReceiptMarker) => ReceiptStage,
  w: ReceiptWords,
  hubs: ReceiptHubs,
  warn: (line: string) => void
): Promise<number> {
  let recorded = 0
  for (const t of taken) {
    const m = t.marker
    try {
      const e = await recordReceipt(await hubs(m), m.request, {
        stage: stageOf(m),
        hook_event: w.hook_event,
        from_agent: w.from_agent,
        ...(w.reason ? { reason: w.reason } : {}),
        tool_use_id: m.tool_use_id
      })
      if (e) recorded++
      t.settle()
    } catch (err) {
      t.restore()
      warn(`muster session-hook: the receipt of ${m.request.correlation_id} was not recorded: ${(err as Error).message}`)
    }
  }
  return recorded
}

/**
 * A session ended or was interrupted: every marker it left is taken and recorded, a request still
 * waiting for the operator as `withdrawn` (its hook answers no and nobody can decide it any more),
 * a delivered allow that has not run as `end` (withdrawn: it never ran; denied: the user refused it).
 */
export async function settleSessionEnd(
  home: string,
  harness: string,
  session: string,
  end: SessionEnd,
  w: ReceiptWords,
  hubs: ReceiptHubs,
  warn: (line: string) => void
): Promise<number> {
  const taken = takeSessionMarkers(home, harness, session)
  if (!taken.length) return 0
  return recordTaken(taken, (m) => (m.state === 'waiting' ? 'withdrawn' : end), w, hubs, warn)
}
