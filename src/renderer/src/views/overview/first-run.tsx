/** The first screen when no project is registered: demo fleet, or add/scan real folders. */
import { Eye, LoaderCircle, Plug, Sparkles } from 'lucide-react'
import { useCreateDemo } from '../../api/queries'
import { AddProjectForm } from '../../components/add-project-form'
import { ScanFolderForm } from '../../components/scan-folder-form'
import { InlineError } from '../../components/state-views'
import { goTo } from '../../lib/muse-route'

/** Welcome panel with the demo offer and the add/scan forms. */
export function FirstRun() {
  const demo = useCreateDemo()
  return (
    <div className="first-run" data-testid="demo-offer">
      <div className="hero-panel">
        <div className="first-run-icon" aria-hidden>
          <Eye size={20} />
        </div>
        <div>
          <h2>No projects yet</h2>
          <p>
            Muster watches the <code>.muse/</code> role files of your projects (each role’s L0 status line, directives and daily memory
            logs) and shows the whole fleet on one screen, live. It reads files on this machine and changes nothing until you act.
          </p>
        </div>
      </div>

      <div className="first-run-options">
        <section className="panel first-run-demo" aria-labelledby="demo-title">
          <h3 id="demo-title">
            <Sparkles size={15} aria-hidden /> Try it with the demo fleet
          </h3>
          <p className="muted">
            Creates a few sample projects with real-looking role files, plus a hub with tasks, patches and approvals, in Muster’s home
            folder, and registers them. Remove them any time in Settings.
          </p>
          <button
            type="button"
            className="btn btn-primary"
            data-testid="create-demo"
            onClick={() => demo.mutate({})}
            disabled={demo.isPending}
          >
            {demo.isPending ? <LoaderCircle size={14} className="spin" aria-hidden /> : <Sparkles size={14} aria-hidden />}
            {demo.isPending ? 'Creating the demo fleet…' : 'Create the demo fleet'}
          </button>
          <InlineError error={demo.error} />
        </section>

        <section className="panel first-run-own" aria-labelledby="own-title">
          <h3 id="own-title">Or register your own projects</h3>
          <AddProjectForm />
          <div className="or-divider">
            <span>or</span>
          </div>
          <ScanFolderForm />
        </section>
      </div>

      <section className="panel first-run-connect" aria-labelledby="connect-title">
        <h3 id="connect-title">
          <Plug size={15} aria-hidden /> Connect your agents
        </h3>
        <p className="muted">
          Send Claude Code, Codex, Gemini CLI and the others’ tool calls to your Approvals inbox: Muster finds them on this machine and
          installs its gate with one click.
        </p>
        <button type="button" className="btn" onClick={() => goTo('#/connect')} data-testid="first-run-connect">
          <Plug size={14} aria-hidden /> Connect agents
        </button>
      </section>
    </div>
  )
}
