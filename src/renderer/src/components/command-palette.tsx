/** Ctrl/Cmd+K palette: navigation, theme, project actions, and finding projects, roles, directives, patches, approvals, agents. */
import { Command } from 'cmdk'
import { BookOpen, FileText, FolderGit2, FolderPlus, FolderSearch, Moon, Plug, RefreshCw, Send, Sparkles, Sun } from 'lucide-react'
import { useQueryClient } from '@tanstack/react-query'
import { useCreateDemo, useFleetStatus } from '../api/queries'
import { useSystemDark, useToggleTheme } from '../hooks/use-theme'
import { errorMessage, plural } from '../lib/format'
import { goTo, memoryHref, roleHref } from '../lib/muse-route'
import { SCREENS } from '../lib/screens'
import { useToastStore } from '../stores/toast-store'
import { useUiStore } from '../stores/ui-store'
import { Keys } from './kbd'
import { PaletteFinds } from './palette-finds'

/** The command palette dialog; rendered once in the shell. */
export function CommandPalette() {
  const open = useUiStore((s) => s.paletteOpen)
  const setOpen = useUiStore((s) => s.setPaletteOpen)
  const navigate = useUiStore((s) => s.navigate)
  const openProjectDialog = useUiStore((s) => s.openProjectDialog)
  const setFocusProject = useUiStore((s) => s.setFocusProject)
  const theme = useUiStore((s) => s.theme)
  const systemDark = useSystemDark()
  const toggleTheme = useToggleTheme()
  const fleet = useFleetStatus()
  const demo = useCreateDemo()
  const qc = useQueryClient()
  const toast = useToastStore((s) => s.push)

  const run = (action: () => void) => () => {
    setOpen(false)
    action()
  }
  const isDark = theme === 'system' ? systemDark : theme === 'dark'

  return (
    <Command.Dialog
      open={open}
      onOpenChange={setOpen}
      label="Command palette"
      data-testid="command-palette"
      className="palette"
      overlayClassName="palette-overlay"
      contentClassName="palette-content"
      loop
    >
      <Command.Input className="palette-input" placeholder="A command, project, role, directive id, patch, approval, agent…" />
      <Command.List className="palette-list">
        <Command.Empty className="palette-empty">Nothing matches.</Command.Empty>
        <Command.Group heading="Go to">
          {SCREENS.map((s) => {
            const Icon = s.icon
            return (
              <Command.Item key={s.id} value={`go ${s.label}`} onSelect={run(() => navigate(s.id))} data-testid={`palette-go-${s.id}`}>
                <Icon size={15} aria-hidden />
                <span>Go to {s.label}</span>
                <Keys keys={['g', s.chord]} />
              </Command.Item>
            )
          })}
        </Command.Group>
        <Command.Group heading="Actions">
          <Command.Item value="toggle theme dark light" onSelect={run(toggleTheme)} data-testid="palette-toggle-theme">
            {isDark ? <Sun size={15} aria-hidden /> : <Moon size={15} aria-hidden />}
            <span>Switch to {isDark ? 'light' : 'dark'} theme</span>
          </Command.Item>
          <Command.Item value="add project folder" onSelect={run(() => openProjectDialog('add'))} data-testid="palette-add-project">
            <FolderPlus size={15} aria-hidden />
            <span>Add project…</span>
          </Command.Item>
          <Command.Item value="scan folder for projects" onSelect={run(() => openProjectDialog('scan'))} data-testid="palette-scan-folder">
            <FolderSearch size={15} aria-hidden />
            <span>Scan folder for projects…</span>
          </Command.Item>
          <Command.Item
            value="create demo fleet sample"
            data-testid="palette-create-demo"
            onSelect={run(() => {
              navigate('overview')
              demo.mutate(
                {},
                {
                  onSuccess: (r) => toast('info', `Demo fleet created: ${plural(r.projects.length, 'project')} in ${r.dir}`),
                  onError: (err) => toast('error', `Could not create the demo fleet: ${errorMessage(err)}`)
                }
              )
            })}
          >
            <Sparkles size={15} aria-hidden />
            <span>Create demo fleet</span>
          </Command.Item>
          <Command.Item
            value="connect agents harness gate hooks install"
            onSelect={run(() => goTo('#/connect'))}
            data-testid="palette-connect"
          >
            <Plug size={15} aria-hidden />
            <span>Connect agents…</span>
          </Command.Item>
          <Command.Item value="search memory logs memories" onSelect={run(() => goTo(memoryHref()))} data-testid="palette-memory">
            <BookOpen size={15} aria-hidden />
            <span>Search memory…</span>
          </Command.Item>
          <Command.Item value="send new directive" onSelect={run(() => goTo('#/directives?send=1'))} data-testid="palette-send-directive">
            <Send size={15} aria-hidden />
            <span>Send directive…</span>
          </Command.Item>
          <Command.Item value="refresh reload fleet status" onSelect={run(() => void qc.invalidateQueries())}>
            <RefreshCw size={15} aria-hidden />
            <span>Refresh all data</span>
          </Command.Item>
        </Command.Group>
        <PaletteFinds open={open} run={run} />
        {fleet.data && fleet.data.length > 0 && (
          <Command.Group heading="Projects">
            {fleet.data.map((p) => (
              <Command.Item
                key={p.name}
                value={`project ${p.name} ${p.key} ${p.path}`}
                data-testid={`palette-project-${p.name}`}
                onSelect={run(() => {
                  navigate('overview')
                  setFocusProject(p.name)
                })}
              >
                <FolderGit2 size={15} aria-hidden />
                <span>{p.name}</span>
                <span className="palette-meta">
                  {p.key} · {plural(p.roles.length, 'role')}
                </span>
              </Command.Item>
            ))}
          </Command.Group>
        )}
        {fleet.data && fleet.data.some((p) => p.roles.length > 0) && (
          <Command.Group heading="Role files">
            {fleet.data.flatMap((p) =>
              p.roles.map((r) => (
                <Command.Item
                  key={`${p.name}/${r.role}`}
                  value={`role ${p.name}/${r.role} ${p.key}/${r.role}`}
                  data-testid={`palette-role-${p.name}-${r.role}`}
                  onSelect={run(() => goTo(roleHref(p.name, r.role)))}
                >
                  <FileText size={15} aria-hidden />
                  <span>
                    {p.name}/{r.role}
                  </span>
                  <span className="palette-meta">{r.l0?.version ?? `${r.lines} lines`}</span>
                </Command.Item>
              ))
            )}
          </Command.Group>
        )}
      </Command.List>
    </Command.Dialog>
  )
}
