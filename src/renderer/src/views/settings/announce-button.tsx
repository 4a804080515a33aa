/** "Announce presence": a `status` event from the operator on every hub, so agents see who is home. */
import { useState } from 'react'
import { LoaderCircle, Radio } from 'lucide-react'
import { useAnnounce, useHubs } from '../../api/hub-queries'
import { RelativeTime } from '../../components/relative-time'
import { InlineError } from '../../components/state-views'
import { hubChoices } from '../timeline/timeline-toolbar'

/** The button and the time of the last announcement made from here. */
export function AnnounceButton() {
  const hubs = useHubs()
  const announce = useAnnounce()
  const [done, setDone] = useState<{ at: string; hubs: string[] } | null>(null)
  const choices = hubChoices(hubs.data)

  const run = async (): Promise<void> => {
    const names: string[] = []
    for (const c of choices) {
      const out = await announce.mutateAsync(c.name ? { hub: c.name } : {})
      names.push(c.label)
      setDone({ at: out.event.created_at, hubs: [...names] })
    }
  }

  return (
    <div className="announce-row" data-testid="announce">
      <button
        type="button"
        className="btn"
        onClick={() => void run().catch(() => undefined)}
        disabled={announce.isPending || choices.length === 0}
        data-testid="announce-presence"
      >
        {announce.isPending ? <LoaderCircle size={14} className="spin" aria-hidden /> : <Radio size={14} aria-hidden />}
        Announce presence
      </button>
      {done ? (
        <span className="hint" data-testid="announce-done">
          Announced on {done.hubs.join(', ')} <RelativeTime iso={done.at} />
        </span>
      ) : (
        <span className="hint">
          {choices.length ? 'Writes a status event (to *) so agents see you are home.' : 'No hub registered yet.'}
        </span>
      )}
      <InlineError error={announce.error} />
    </div>
  )
}
