/** Bench page: react-diff-view renders the whole patch (mounted by the diff-view bench). */
import { createRoot } from 'react-dom/client'
import { parseDiff, Diff, Hunk } from 'react-diff-view'
import 'react-diff-view/style/index.css'

function View({ patch }: { patch: string }) {
  const files = parseDiff(patch, { nearbySequences: 'zip' })
  return (
    <div id="scroller" style={{ height: '100vh', overflow: 'auto' }}>
      {files.map((f) => (
        <section key={f.newPath + f.oldPath}>
          <h3>{f.newPath}</h3>
          <Diff viewType="unified" diffType={f.type} hunks={f.hunks}>
            {(hunks) => hunks.map((h) => <Hunk key={h.content} hunk={h} />)}
          </Diff>
        </section>
      ))}
    </div>
  )
}

;(window as unknown as { mountDiff: (p: string) => void }).mountDiff = (patch: string) => {
  createRoot(document.getElementById('root')!).render(<View patch={patch} />)
}
