/** Settings: appearance, operator identity, projects, and what this Muster is. */
import { Plug } from 'lucide-react'
import type { ReactNode } from 'react'
import { transportKind } from '../../api/client'
import { useConnectionStore } from '../../api/connection-store'
import { useAppInfo } from '../../api/queries'
import { Keys, MOD_KEY } from '../../components/kbd'
import { ActionButton } from '../../components/action-button'
import { ScreenHeader } from '../../components/screen-header'
import { ErrorState, LoadingState } from '../../components/state-views'
import { goTo } from '../../lib/muse-route'
import { SCREENS } from '../../lib/screens'
import { AnnounceButton } from './announce-button'
import { OperatorForm } from './operator-form'
import { PresencePanel } from './presence-panel'
import { PushPanel } from './push-panel'
import { HubsManager } from './hubs-manager'
import { ProjectsManager } from './projects-manager'
import { ThemePicker } from './theme-picker'

function Section({ id, title, description, children }: { id: string; title: string; description?: string; children: ReactNode }) {
  return (
    <section className="settings-section" aria-labelledby={`settings-${id}`} data-testid={`settings-${id}`}>
      <div className="settings-section-head">
        <h2 id={`settings-${id}`}>{title}</h2>
        {description && <p className="muted">{description}</p>}
      </div>
      <div className="settings-section-body">{children}</div>
    </section>
  )
}

function AboutPanel() {
  const info = useAppInfo()
  const status = useConnectionStore((s) => s.status)
  if (info.isPending) return <LoadingState />
  if (info.isError)
    return <ErrorState title="Could not read app info" error={info.error} onRetry={() => void info.refetch()} retrying={info.isFetching} />
  const d = info.data
  return (
    <dl className="kv" data-testid="app-info">
      <dt>Version</dt>
      <dd className="mono" data-testid="app-version">
        {d.version}
      </dd>
      <dt>Muster home</dt>
      <dd className="mono" data-testid="app-home" title={d.home}>
        {d.home}
      </dd>
      <dt>Transport</dt>
      <dd data-testid="app-transport">
        {transportKind === 'ipc' ? 'Electron IPC (desktop app)' : `${d.transport === 'https' ? 'HTTPS' : 'HTTP'} + SSE (muster serve)`}
        <span className="muted"> · events {status}</span>
      </dd>
      <dt>Projects</dt>
      <dd className="num-inline">{d.projectCount}</dd>
    </dl>
  )
}

function ShortcutsPanel() {
  return (
    <dl className="kv shortcuts">
      <dt>Command palette</dt>
      <dd>
        <Keys keys={[MOD_KEY, 'K']} />
      </dd>
      {SCREENS.map((s) => (
        <FragmentRow key={s.id} label={s.label} chord={s.chord} digit={s.digit} />
      ))}
    </dl>
  )
}

function FragmentRow({ label, chord, digit }: { label: string; chord: string; digit: number }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>
        <Keys keys={['g', chord]} /> <span className="muted">or</span> <Keys keys={[String(digit)]} />
      </dd>
    </>
  )
}

/** The Settings screen. */
export function SettingsScreen() {
  return (
    <section className="screen" data-testid="screen-settings">
      <ScreenHeader
        title="Settings"
        description="Stored in Muster’s state database, shared by the desktop app, the CLI and muster serve."
      />
      <div className="settings">
        <Section id="appearance" title="Appearance" description="Follows the system by default.">
          <ThemePicker />
        </Section>
        <Section id="operator" title="Operator" description="Who you are on the hub.">
          <OperatorForm />
          <AnnounceButton />
        </Section>
        <Section
          id="presence"
          title="Presence"
          description="Your authenticators (a passkey on this device or your phone, a security key, Touch ID or Windows Hello) confirm allows, so an agent running as you cannot approve its own calls."
        >
          <PresencePanel />
        </Section>
        <Section
          id="push"
          title="Phone push"
          description="Devices notified when something new needs you, approvals first: through each browser's own push service, encrypted end to end, with no Muster account."
        >
          <PushPanel />
        </Section>
        <Section
          id="projects"
          title="Projects"
          description="Folders with a .muse/ directory that Muster watches. Removing one leaves its files alone."
        >
          <ProjectsManager />
        </Section>
        <Section
          id="hubs"
          title="Hubs"
          description="MemPalace hubs shown on the Overview and the Timeline: a palace folder (logstream.sqlite3) on this machine, or a hub server (mempalace serve). Removing one leaves its file or server alone."
        >
          <HubsManager />
        </Section>
        <Section
          id="agents"
          title="Agents"
          description="Which agent harnesses are on this machine, and whether Muster's approvals gate and session hooks are installed in each."
        >
          <ActionButton icon={Plug} onClick={() => goTo('#/connect')} testId="settings-connect">
            Connect agents
          </ActionButton>
        </Section>
        <Section id="about" title="About this Muster">
          <AboutPanel />
        </Section>
        <Section id="keyboard" title="Keyboard">
          <ShortcutsPanel />
        </Section>
      </div>
    </section>
  )
}
