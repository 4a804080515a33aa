/** Bench and e2e page: Muster's own DiffView with the app's theme tokens (?theme=dark for dark). */
import { createRoot } from 'react-dom/client'
import '../../src/renderer/src/styles/tokens.css'
import '../../src/renderer/src/styles/base.css'
import { DiffView } from '../../src/renderer/src/components/diff-view/diff-view'

;(window as unknown as { mountDiff: (p: string) => void }).mountDiff = (patch: string) => {
  document.documentElement.dataset.theme = new URLSearchParams(location.search).get('theme') ?? 'light'
  const root = document.getElementById('root')!
  root.style.height = '100vh'
  createRoot(root).render(<DiffView patch={patch} />)
}
