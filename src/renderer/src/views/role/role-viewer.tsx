/**
 * The role viewer (`#/role/<project>/<role>[?line=N]`): the file rendered as markdown between its
 * outline and a rail with TODO progress and its directives, which are highlighted in the text.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { FileQuestion } from 'lucide-react'
import { ApiError, type DirectiveState } from '../../../../shared/api'
import { useDirectives, useFleetStatus, useLint, useRole } from '../../api/queries'
import { MarkdownView, scrollToSourceLine, type LineRange } from '../../components/markdown'
import { EmptyState, ErrorState, LoadingState } from '../../components/state-views'
import { KeptSends } from './kept-sends'
import { RoleDirectives, type RoleDirectiveItem } from './role-directives'
import { RoleHeader } from './role-header'
import { RoleOutline } from './role-outline'
import { TodoProgressPanel } from './todo-progress'

/** How long a jumped-to block stays highlighted. */
const FLASH_MS = 1600

/** The viewer; mounted with a key per file so scroll state starts fresh. */
export function RoleViewer({ project, role, line }: { project: string; role: string; line: number | null }) {
  const query = useRole(project, role)
  const lint = useLint(project)
  const directives = useDirectives()
  const fleet = useFleetStatus()
  const bodyRef = useRef<HTMLDivElement>(null)
  const [active, setActive] = useState<number | null>(null)
  const detail = query.data

  const jump = useCallback((to: number, behavior: ScrollBehavior = 'smooth') => {
    setActive(to)
    const el = scrollToSourceLine(bodyRef.current, to, behavior)
    if (!el) return
    el.classList.remove('md-flash')
    // Restart the animation even when the same block is flashed twice in a row.
    void el.offsetWidth
    el.classList.add('md-flash')
    setTimeout(() => el.classList.remove('md-flash'), FLASH_MS)
  }, [])

  // Jump to `?line=` once the text is on screen (and again if the link changes).
  const hasText = !!detail
  useEffect(() => {
    if (hasText && line) requestAnimationFrame(() => jump(line, 'auto'))
  }, [hasText, line, jump])

  // Scroll spy: the outline follows the section at the top of the document pane.
  const sections = detail?.sections
  useEffect(() => {
    const pane = bodyRef.current
    if (!pane || !sections?.length) return
    let frame = 0
    const onScroll = (): void => {
      if (frame) return
      frame = requestAnimationFrame(() => {
        frame = 0
        const top = pane.getBoundingClientRect().top + 24
        let current: number | null = null
        for (const s of sections) {
          const el = pane.querySelector<HTMLElement>(`[data-line="${s.line}"]`)
          if (!el) continue
          if (el.getBoundingClientRect().top <= top) current = s.line
          else break
        }
        setActive(current)
      })
    }
    pane.addEventListener('scroll', onScroll, { passive: true })
    return () => {
      pane.removeEventListener('scroll', onScroll)
      if (frame) cancelAnimationFrame(frame)
    }
  }, [sections])

  const ranges = useMemo<LineRange[]>(() => {
    if (!detail) return []
    return [
      ...detail.directives.map((d) => ({ line: d.line, endLine: d.endLine, className: `md-directive md-directive-${d.mark}` })),
      ...detail.notices.map((n) => ({ line: n.line, endLine: n.endLine, className: `md-directive md-notice md-directive-${n.mark}` }))
    ]
  }, [detail])

  const items = useMemo<RoleDirectiveItem[]>(() => {
    if (!detail) return []
    const states = new Map<string, DirectiveState>()
    for (const d of directives.data?.directives ?? []) {
      for (const o of d.occurrences) if (o.project === detail.project) states.set(`${o.file}:${o.line}`, d.state)
    }
    const list = detail.directives.map((o) => ({ occurrence: o, state: states.get(`${o.file}:${o.line}`) ?? null }))
    const rank = (i: RoleDirectiveItem) => ((i.state ?? (i.occurrence.mark === 'pending' ? 'pending' : 'x')) === 'pending' ? 0 : 1)
    return list.sort((a, b) => rank(a) - rank(b) || a.occurrence.line - b.occurrence.line)
  }, [detail, directives.data])

  const findings = useMemo(() => (lint.data?.findings ?? []).filter((f) => f.role?.toLowerCase() === role.toLowerCase()), [lint.data, role])
  const projectPath = fleet.data?.find((p) => p.name === (detail?.project ?? project))?.path
  const path = detail ? (/[\\/]/.test(detail.file) || !projectPath ? detail.file : `${projectPath}/.muse/${detail.file}`) : ''
  const bytes = useMemo(() => (detail ? new TextEncoder().encode(detail.text).length : 0), [detail])

  if (query.isPending) {
    return (
      <section className="screen" data-testid="role-viewer">
        <LoadingState label={`Reading ${project}/${role}…`} />
      </section>
    )
  }
  if (!detail) {
    const missing = query.error instanceof ApiError && query.error.code === 'not_found'
    return (
      <section className="screen" data-testid="role-viewer">
        {missing ? (
          <EmptyState icon={<FileQuestion size={18} />} title={`No role file ${project}/${role}`}>
            <p>{query.error?.message}</p>
            <p>
              <a href="#/directives">Back to directives</a>
            </p>
          </EmptyState>
        ) : (
          <ErrorState
            title={`Could not read ${project}/${role}`}
            error={query.error}
            onRetry={() => void query.refetch()}
            retrying={query.isFetching}
          />
        )}
      </section>
    )
  }

  return (
    <section className="screen screen-fill role-viewer" data-testid="role-viewer" aria-label={`Role file ${detail.project}/${detail.role}`}>
      <RoleHeader detail={detail} path={path} bytes={bytes} lint={findings} onJump={jump} />
      <KeptSends project={detail.project} file={detail.file} />
      {query.isError && (
        <ErrorState
          title="Refreshing failed; showing the last text read"
          error={query.error}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      )}
      <div className="rv-body">
        <RoleOutline sections={detail.sections} active={active} onJump={jump} />
        <div className="rv-doc" ref={bodyRef} tabIndex={0} role="region" aria-label={`${detail.role}.md text`}>
          <MarkdownView text={detail.text} ranges={ranges} className="md-doc" testId="role-markdown" />
        </div>
        <div className="rv-rail">
          <TodoProgressPanel todos={detail.todos} onJump={jump} />
          <RoleDirectives items={items} notices={detail.notices} onJump={jump} />
        </div>
      </div>
    </section>
  )
}
