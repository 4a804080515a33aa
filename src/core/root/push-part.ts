/**
 * The root's phone-push part, in a module of its own: `web-push` and its crypto load only when a
 * page asks for push or the needs-you queue has something new to push, never for the hook or the CLI.
 */
import type { PushService } from '../push'
import type { Root } from './root-types'

/** Phone push on the root's state DB, finding an approval's tool through the root's approvals. */
export async function pushPart(root: Root): Promise<PushService> {
  const { PushService } = await import('../push')
  const push = new PushService({
    db: root.get('state'),
    home: root.options.home,
    async toolOf(item) {
      if (item.kind !== 'approval' || !item.palace) return null
      const approvals = await root.get('approvals')
      const list = await approvals.list({ palace: item.palace, history_limit: 0 })
      return list.pending.find((p) => p.id === item.ref)?.tool_name ?? null
    }
  })
  // what is being sent gets to finish (each send is bounded by its timeout)
  root.onClose(() => push.idle())
  return push
}
