/**
 * What the command palette finds beyond screens and projects: directives by id, patches,
 * pending approvals, agents, and the Memory and Chains screens. Read only while the palette is
 * open; each entry opens the thing's own address (shared/links).
 */
import { useQuery } from '@tanstack/react-query'
import { Command } from 'cmdk'
import { Bot, FileDiff, Link2, Send, ShieldCheck } from 'lucide-react'
import type { MethodInput, MethodName, MethodOutput } from '../../../shared/api'
import { approvalLink, directiveLink, eventLink, patchLink } from '../../../shared/links'
import { client } from '../api/client'
import { queryKey } from '../api/queries'
import { goTo } from '../lib/muse-route'

/** A read for the palette, only while it is open. */
function usePaletteRead<M extends MethodName>(method: M, input: MethodInput<M>, open: boolean) {
  return useQuery<MethodOutput<M>, Error>({
    queryKey: queryKey(method, input),
    queryFn: () => client.call(method, input),
    enabled: open,
    staleTime: 10_000
  })
}

/** The palette's groups of things to open; `run` closes the palette and acts. */
export function PaletteFinds({ open, run }: { open: boolean; run: (action: () => void) => () => void }) {
  const directives = usePaletteRead('muse.directives', {}, open).data?.directives ?? []
  const patches = usePaletteRead('patch.list', { limit: 100 }, open).data
  const approvals = usePaletteRead('approvals.list', {}, open).data?.pending ?? []
  const overview = usePaletteRead('hub.overview', {}, open).data
  const agents = (overview?.hubs ?? []).flatMap((h) =>
    h.agents.map((a) => ({ hub: h.hub === h.palace ? null : h.hub, agent: a.agent, state: a.state }))
  )
  const patchHub = patches && patches.hub !== patches.palace ? patches.hub : null
  return (
    <>
      <Command.Group heading="Directives and chains">
        <Command.Item value="chains invocation chain findings" onSelect={run(() => goTo('#/chains'))} data-testid="palette-chains">
          <Link2 size={15} aria-hidden />
          <span>Invocation chains</span>
        </Command.Item>
        {directives.map((d) => (
          <Command.Item
            key={d.key}
            value={`directive ${d.id} ${d.target} ${d.title}`}
            onSelect={run(() => goTo(directiveLink(d.id, d.key)))}
            data-testid={`palette-directive-${d.id}`}
          >
            <Send size={15} aria-hidden />
            <span>
              {d.id} → {d.target}
            </span>
            <span className="palette-meta">{d.title}</span>
          </Command.Item>
        ))}
      </Command.Group>
      {(patches?.patches.length ?? 0) > 0 && (
        <Command.Group heading="Patches">
          {patches!.patches.map((p) => (
            <Command.Item
              key={p.event.id}
              value={`patch ${p.event.id} ${p.event.from_agent} ${p.project ?? ''} ${p.event.body.split('\n')[0]}`}
              onSelect={run(() => goTo(patchLink(patchHub, p.event.id)))}
              data-testid={`palette-patch-${p.event.id}`}
            >
              <FileDiff size={15} aria-hidden />
              <span>{p.event.body.split('\n')[0]}</span>
              <span className="palette-meta">
                {p.event.from_agent} · {p.state}
              </span>
            </Command.Item>
          ))}
        </Command.Group>
      )}
      {approvals.length > 0 && (
        <Command.Group heading="Approvals waiting">
          {approvals.map((a) => (
            <Command.Item
              key={a.id}
              value={`approval ${a.correlation_id} ${a.agent} ${a.tool_name} ${a.summary}`}
              onSelect={run(() => goTo(approvalLink(a.hub === a.palace ? null : a.hub, a.id)))}
              data-testid={`palette-approval-${a.correlation_id}`}
            >
              <ShieldCheck size={15} aria-hidden />
              <span>
                {a.agent}: {a.summary}
              </span>
              <span className="palette-meta">{a.project}</span>
            </Command.Item>
          ))}
        </Command.Group>
      )}
      {agents.length > 0 && (
        <Command.Group heading="Agents">
          {agents.map((a) => (
            <Command.Item
              key={`${a.hub}/${a.agent}`}
              value={`agent ${a.agent} ${a.state}`}
              onSelect={run(() => goTo(eventLink(a.hub, '', { from_agent: a.agent })))}
              data-testid={`palette-agent-${a.agent}`}
            >
              <Bot size={15} aria-hidden />
              <span>{a.agent}</span>
              <span className="palette-meta">{a.state}</span>
            </Command.Item>
          ))}
        </Command.Group>
      )}
    </>
  )
}
