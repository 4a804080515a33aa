/** "Open in editor": asks Muster to open the role file at a line in the operator's editor. */
import { SquarePen } from 'lucide-react'
import { useMutation } from '@tanstack/react-query'
import { client } from '../../api/client'
import { useToastStore } from '../../stores/toast-store'

/** Opens `project`/`role` at `line` ($MUSTER_EDITOR, $VISUAL, $EDITOR or the OS opener). */
export function OpenInEditorButton({ project, role, line }: { project: string; role: string; line?: number }) {
  const push = useToastStore((s) => s.push)
  const open = useMutation({
    mutationFn: () => client.call('muse.openRole', { project, role, line }),
    onSuccess: (r) => push('info', `Opened ${r.file} with ${r.command}`),
    onError: (err: Error) => push('error', err.message)
  })
  return (
    <button
      type="button"
      className="btn"
      onClick={() => open.mutate()}
      disabled={open.isPending}
      data-testid="open-in-editor"
      title="Open this file in your editor"
    >
      <SquarePen size={14} aria-hidden /> Open in editor
    </button>
  )
}
