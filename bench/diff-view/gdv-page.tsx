/** Bench page: @git-diff-view/react renders the whole patch, one DiffView per file. */
import { createRoot } from 'react-dom/client'
import { DiffView, DiffModeEnum } from '@git-diff-view/react'
import '@git-diff-view/react/styles/diff-view.css'

function View({ patch }: { patch: string }) {
  const chunks = patch.split(/(?=^diff --git )/m)
  return (
    <div id="scroller" style={{ height: '100vh', overflow: 'auto' }}>
      {chunks.map((c) => {
        const name = /^\+\+\+ b\/(.*)$/m.exec(c)?.[1] ?? /^diff --git a\/(\S+)/.exec(c)?.[1] ?? 'file'
        return (
          <section key={name}>
            <h3>{name}</h3>
            <DiffView
              data={{ oldFile: { fileName: name }, newFile: { fileName: name }, hunks: [c] }}
              diffViewMode={DiffModeEnum.Unified}
              diffViewHighlight
            />
          </section>
        )
      })}
    </div>
  )
}

;(window as unknown as { mountDiff: (p: string) => void }).mountDiff = (patch: string) => {
  createRoot(document.getElementById('root')!).render(<View patch={patch} />)
}
