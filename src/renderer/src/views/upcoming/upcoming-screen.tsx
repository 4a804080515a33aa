/** An honest placeholder for a screen that is not built yet: what it will show and where from. */
import { Database, ListChecks, MousePointerClick, Terminal } from 'lucide-react'
import { ScreenHeader } from '../../components/screen-header'
import { SCREENS, type ScreenId } from '../../lib/screens'
import { SCREEN_PLANS } from './screen-plans'

/** The "what this screen will show" panel for `id`. */
export function UpcomingScreen({ id }: { id: ScreenId }) {
  const plan = SCREEN_PLANS[id]
  const def = SCREENS.find((s) => s.id === id)
  if (!plan || !def) return null
  const Icon = def.icon
  return (
    <section className="screen" data-testid={`screen-${id}`} aria-labelledby={`title-${id}`}>
      <ScreenHeader title={plan.title} description="Not built yet. This is what it will show; nothing here is sample data." />
      <div className="upcoming">
        <div className="hero-panel">
          <div className="upcoming-icon" aria-hidden>
            <Icon size={22} />
          </div>
          <div>
            <h2 id={`title-${id}`}>{plan.title} is coming</h2>
            <p>{plan.summary}</p>
          </div>
        </div>
        <div className="upcoming-grid">
          <div className="panel">
            <h3>
              <ListChecks size={15} aria-hidden /> It will list
            </h3>
            <ul className="plan-list">
              {plan.lists.map((l) => (
                <li key={l}>{l}</li>
              ))}
            </ul>
          </div>
          <div className="panel">
            <h3>
              <MousePointerClick size={15} aria-hidden /> You will be able to
            </h3>
            <ul className="plan-list">
              {plan.actions.map((a) => (
                <li key={a}>{a}</li>
              ))}
            </ul>
          </div>
          <div className="panel">
            <h3>
              <Database size={15} aria-hidden /> Reads
            </h3>
            <dl className="plan-source">
              <dt>Protocol</dt>
              <dd>{plan.source.protocol}</dd>
              <dt>Source</dt>
              <dd>
                <code>{plan.source.where}</code>
              </dd>
            </dl>
          </div>
          <div className="panel">
            <h3>
              <Terminal size={15} aria-hidden /> From the terminal
            </h3>
            <ul className="plan-cli">
              {plan.cli.map((c) => (
                <li key={c}>
                  <code>{c}</code>
                </li>
              ))}
            </ul>
            <p className="hint">
              Planned commands of the <code>muster</code> CLI; each takes <code>--json</code>.
            </p>
          </div>
        </div>
      </div>
    </section>
  )
}
