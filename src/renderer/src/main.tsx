/** Renderer entry: theme before first paint, react-query client, then the app. */
// first: zod must know before any schema is built that it may not eval (see the file)
import './lib/zod-jitless'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { ApiError } from '../../shared/api-error'
import { App } from './app'
import { installWebApp } from './lib/web-app'
import { useUiStore } from './stores/ui-store'
import './styles/tokens.css'
import './styles/base.css'
import './styles/shell.css'
import './styles/states.css'
import './styles/forms.css'
import './styles/split.css'
import './styles/table-list.css'
import './styles/overview.css'
import './styles/settings.css'
import './styles/upcoming.css'
import './styles/timeline.css'
import './styles/timeline-pane.css'
import './styles/patches.css'
import './styles/hub-overview.css'
import './styles/row-list.css'
import './styles/needs.css'
import './styles/sessions.css'
import './styles/usage.css'
import './styles/gates.css'
import './styles/connect.css'
import './styles/muse.css'
import './styles/directives.css'
import './styles/role.css'
import './styles/memory.css'
import './styles/notes.css'
import './styles/chains.css'
import './styles/approvals.css'
import './styles/palette.css'
import './styles/responsive.css'

// Apply the last known theme before React renders, so a dark-mode operator never sees a white flash.
{
  const theme = useUiStore.getState().theme
  const dark = theme === 'dark' || (theme === 'system' && window.matchMedia('(prefers-color-scheme: dark)').matches)
  document.documentElement.dataset.theme = dark ? 'dark' : 'light'
}

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // Pushed events invalidate what changed, so data is fresh until told otherwise.
      staleTime: Infinity,
      refetchOnWindowFocus: false,
      // Bad input or a missing thing will not fix itself by retrying.
      retry: (count, err) => !(err instanceof ApiError && err.code !== 'internal') && count < 2
    }
  }
})

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')
createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>
  </StrictMode>
)

installWebApp()
