/** The outline of a role file: its headers (outside code fences), indented by level. */
import { useEffect, useRef } from 'react'
import type { RoleDetail } from '../../../../shared/api'
import { plainInline } from '../../components/markdown'
import { Visible } from '../../components/visible'
import { visibleTitle } from '../../../../shared/visible-text'

type Section = RoleDetail['sections'][number]

/** Section kinds worth a small marker in the outline. */
const KIND_LABEL: Partial<Record<Section['kind'], string>> = {
  todo: 'TODO',
  received: 'received',
  outgoing: 'outgoing',
  notices: 'notices',
  directive: '📡',
  notice: 'notice'
}

/** Headers as buttons; `active` is the line of the section last jumped to. */
export function RoleOutline({
  sections,
  active,
  onJump
}: {
  sections: readonly Section[]
  active: number | null
  onJump: (line: number) => void
}) {
  const minLevel = sections.reduce((m, s) => Math.min(m, s.level), 6)
  const ref = useRef<HTMLElement>(null)
  useEffect(() => {
    if (active) ref.current?.querySelector(`[data-line="${active}"]`)?.scrollIntoView({ block: 'nearest' })
  }, [active])
  return (
    <nav className="role-outline" aria-label="Sections" data-testid="role-outline" ref={ref}>
      <h3 className="rail-title">Outline</h3>
      {sections.length === 0 ? (
        <p className="muted rail-empty">No headers.</p>
      ) : (
        <ul>
          {sections.map((s) => (
            <li key={s.line}>
              <button
                type="button"
                className={`outline-item outline-l${Math.min(4, s.level - minLevel + 1)}${active === s.line ? ' active' : ''}`}
                onClick={() => onJump(s.line)}
                aria-current={active === s.line ? 'location' : undefined}
                title={`${visibleTitle(plainInline(s.title))} (lines ${s.line}–${s.endLine})`}
                data-line={s.line}
              >
                <span className="ellipsis">
                  <Visible text={plainInline(s.title)} />
                </span>
                {KIND_LABEL[s.kind] && <span className={`outline-kind outline-kind-${s.kind}`}>{KIND_LABEL[s.kind]}</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
    </nav>
  )
}
