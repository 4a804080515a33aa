/** Tabs between the list views of the MUSE area: directives, memory search, invocation chains. */
import { BookOpen, Send, Workflow } from 'lucide-react'
import { memoryHref } from '../../lib/muse-route'

/** `current` is the tab on screen; `pending` adds a count to the Directives tab. */
export function MuseTabs({ current, pending }: { current: 'directives' | 'memory' | 'chains'; pending?: number }) {
  return (
    <nav className="segmented muse-tabs" aria-label="MUSE views">
      <a
        href="#/directives"
        className={`muse-tab${current === 'directives' ? ' active' : ''}`}
        aria-current={current === 'directives' ? 'page' : undefined}
        data-testid="tab-directives"
      >
        <Send size={13} aria-hidden /> Directives
        {pending ? (
          <span className="muse-tab-count" title={`${pending} pending`}>
            {pending}
          </span>
        ) : null}
      </a>
      <a
        href={memoryHref()}
        className={`muse-tab${current === 'memory' ? ' active' : ''}`}
        aria-current={current === 'memory' ? 'page' : undefined}
        data-testid="tab-memory"
      >
        <BookOpen size={13} aria-hidden /> Memory
      </a>
      <a
        href="#/chains"
        className={`muse-tab${current === 'chains' ? ' active' : ''}`}
        aria-current={current === 'chains' ? 'page' : undefined}
        data-testid="tab-chains"
      >
        <Workflow size={13} aria-hidden /> Chains
      </a>
    </nav>
  )
}
