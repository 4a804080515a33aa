/** The Directives sidebar entry's routes: the directive list, a role file, memory search, or chain findings. */
import { museRouteFromHash, useHash } from '../../lib/muse-route'
import { ChainsScreen } from '../chains/chains-screen'
import { MemoryScreen } from '../memory/memory-screen'
import { RoleViewer } from '../role/role-viewer'
import { DirectivesScreen } from './directives-screen'

/** Picks the view from the location hash. */
export function MuseArea() {
  const route = museRouteFromHash(useHash())
  switch (route.kind) {
    case 'role':
      return <RoleViewer key={`${route.project}/${route.role}`} project={route.project} role={route.role} line={route.line} />
    case 'memory':
      return <MemoryScreen initialQuery={route.query} />
    case 'chains':
      return <ChainsScreen />
    default:
      return <DirectivesScreen openSend={route.send} />
  }
}
