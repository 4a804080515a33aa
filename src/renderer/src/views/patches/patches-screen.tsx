/**
 * The Patches screen (`#/patches`): every `patch.ready` of the hub with its state, filterable and
 * keyboard-driven; the selected one verified (sha256 over the exact bytes), applied only by an
 * explicit click, tested with live output, acked, and revertable after failing tests.
 */
import { useEffect, useMemo, useState } from 'react'
import { FileDiff, Send } from 'lucide-react'
import { PATCH_STATES, type PatchState } from '../../../../shared/api'
import { usePatches } from '../../api/patch-queries'
import { useHubs } from '../../api/hub-queries'
import { useTimelineStore } from '../../stores/timeline-store'
import { hubChoices } from '../timeline/timeline-toolbar'
import { ScreenHeader } from '../../components/screen-header'
import { EmptyState, ErrorState, LoadingState } from '../../components/state-views'
import { PatchDetail } from './patch-detail'
import { PatchList } from './patch-list'
import { patchesRouteFromHash } from './patches-route'
import { useHash } from '../../lib/muse-route'
import { SubmitDialog } from './submit-dialog'
import { RefreshButton } from '../../components/refresh-button'

/** The screen. */
export function PatchesScreen() {
  const hubs = useHubs().data
  const choices = useMemo(() => hubChoices(hubs), [hubs])
  // the Timeline's hub (one choice for both screens), else the first one offered
  const picked = useTimelineStore((s) => s.query.hub)
  const setHub = useTimelineStore((s) => s.setHub)
  const hub = picked ?? choices[0]?.name ?? null
  const [state, setState] = useState<PatchState | ''>('')
  const [text, setText] = useState('')
  const [selected, setSelected] = useState<string | null>(null)
  const [sending, setSending] = useState(false)
  // an address such as #/patches?hub=H&state=waiting (the Overview's count) picks hub and filter
  const hash = useHash()
  const [routedHash, setRoutedHash] = useState<string | null>(null)
  if (hash !== routedHash) {
    setRoutedHash(hash)
    const route = patchesRouteFromHash(hash)
    if (route?.state !== undefined) setState(route.state)
    if (route?.id) {
      // a link to one patch shows it whatever the filters were
      setSelected(route.id)
      if (route.state === undefined) setState('')
      setText('')
    }
  }
  useEffect(() => {
    const route = patchesRouteFromHash(hash)
    if (route?.hub !== undefined) setHub(route.hub)
  }, [hash, setHub])
  const q = usePatches(hub)
  const shown = useMemo(() => {
    const t = text.trim().toLowerCase()
    return (q.data?.patches ?? []).filter((p) => {
      const st = p.verdict === 'refused' && p.state === 'waiting' ? 'refused' : p.state
      if (state && st !== state) return false
      if (!t) return true
      return [
        p.event.from_agent,
        p.event.to_agent ?? '',
        p.project ?? '',
        p.event.stream,
        p.event.branch ?? '',
        p.event.body,
        p.event.id
      ].some((f) => f.toLowerCase().includes(t))
    })
  }, [q.data, state, text])
  const current = shown.find((p) => p.event.id === selected)?.event.id ?? shown[0]?.event.id ?? null
  const c = q.data?.counts

  const actions = (
    <>
      {choices.length > 1 && (
        <select
          className="input select"
          value={hub ?? ''}
          onChange={(e) => setHub(e.target.value || null)}
          aria-label="Hub"
          data-testid="patches-hub"
        >
          {choices.map((c) => (
            <option key={c.name ?? ''} value={c.name ?? ''} title={c.palace}>
              {c.label}
            </option>
          ))}
        </select>
      )}
      <button type="button" className="btn" onClick={() => setSending(true)} data-testid="patches-send">
        <Send size={14} aria-hidden /> Send worktree diff
      </button>
      <RefreshButton query={q} label="Reload patches" size={15} />
    </>
  )

  let body
  if (q.isError)
    body = <ErrorState title="Could not read the hub’s patches" error={q.error} onRetry={() => void q.refetch()} retrying={q.isFetching} />
  else if (!q.data) body = <LoadingState label="Reading patches…" />
  else if (q.data.patches.length === 0) {
    body = (
      <EmptyState icon={<FileDiff size={18} />} title="No patches yet">
        Agents send them with <code>mempalace_patch_submit</code>; you send one to an agent with <code>muster patch submit</code>.
      </EmptyState>
    )
  } else {
    body = (
      <div className="screen-split patches-split">
        <div className="split-main patches-left">
          <div className="patches-filters">
            <select
              className="input select"
              value={state}
              onChange={(e) => setState(e.target.value as PatchState | '')}
              aria-label="State"
              data-testid="patches-state"
            >
              <option value="">All states ({c?.total ?? 0})</option>
              {PATCH_STATES.map((s) => (
                <option key={s} value={s}>
                  {s} ({c?.[s] ?? 0})
                </option>
              ))}
            </select>
            <input
              className="input"
              type="search"
              value={text}
              onChange={(e) => setText(e.target.value)}
              placeholder="Filter: agent, project, branch…"
              aria-label="Filter patches"
            />
          </div>
          {shown.length ? (
            <PatchList patches={shown} selected={current} onSelect={setSelected} />
          ) : (
            <p className="muted patches-none">No patch matches these filters.</p>
          )}
        </div>
        <div className="split-main patches-right">{current ? <PatchDetail key={current} hub={hub} id={current} /> : null}</div>
      </div>
    )
  }

  return (
    <section className="screen screen-fill patches-screen" data-testid="screen-patches" aria-label="Patches">
      <ScreenHeader
        title="Patches"
        description={
          c
            ? `${c.waiting} waiting · ${c.applied} applied · ${c.failed} failed · ${c.refused} refused — verified by sha256, applied only when you click`
            : 'Verified by sha256, applied only when you click'
        }
        actions={actions}
      />
      {body}
      <SubmitDialog hub={hub} open={sending} onClose={() => setSending(false)} />
    </section>
  )
}
