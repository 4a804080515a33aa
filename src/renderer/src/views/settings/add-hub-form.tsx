/**
 * The add form of the Settings hubs section: a palace folder on this machine, or a MemPalace hub
 * server (`mempalace serve`) by URL with its bearer token, pasted. The token goes to Muster's
 * core, which copies it into its home (mode 0600); nothing shows it again. There is no token file
 * field: the API takes no file path (`muster hubs add --token-file` reads one in the shell).
 */
import { useState, type FormEvent } from 'react'
import { FolderOpen, Plus, Server } from 'lucide-react'
import type { MethodInput } from '../../../../shared/api'
import { TextField } from '../../components/form-field'
import { InlineError } from '../../components/state-views'

type Kind = 'local' | 'remote'
type AddInput = MethodInput<'hubs.add'>

/** The form; `add` registers (and resolves once the hub is added), `pending` disables it meanwhile. */
export function AddHubForm({
  add,
  pending,
  error
}: {
  add: (input: AddInput, done: () => void) => void
  pending: boolean
  error: unknown
}) {
  const [kind, setKind] = useState<Kind>('local')
  const [palace, setPalace] = useState('')
  const [url, setUrl] = useState('')
  const [token, setToken] = useState('')
  const [name, setName] = useState('')
  const [create, setCreate] = useState(false)

  const local = kind === 'local'
  const ready = local ? !!palace.trim() : !!url.trim()
  const submit = (e: FormEvent): void => {
    e.preventDefault()
    const named = name.trim() || undefined
    const input: AddInput =
      kind === 'local'
        ? { palace: palace.trim(), name: named, create }
        : { url: url.trim(), name: named, ...(token.trim() ? { token: token.trim() } : {}) }
    add(input, () => {
      setPalace('')
      setUrl('')
      setToken('')
      setName('')
    })
  }

  return (
    <form className="form form-compact" onSubmit={submit} data-testid="add-hub">
      <div className="segmented hub-kind" role="radiogroup" aria-label="Kind of hub">
        {(
          [
            ['local', 'Palace folder', FolderOpen],
            ['remote', 'Hub server', Server]
          ] as const
        ).map(([value, label, Icon]) => (
          <label key={value} className={`segment${kind === value ? ' active' : ''}`}>
            <input
              type="radio"
              name="hub-kind"
              value={value}
              checked={kind === value}
              onChange={() => setKind(value)}
              data-testid={`add-hub-kind-${value}`}
            />
            <Icon size={14} aria-hidden />
            {label}
          </label>
        ))}
      </div>
      <div className="field-row">
        <TextField
          key={kind}
          label={local ? 'Palace folder' : 'Server URL'}
          fieldClass="field-grow"
          mono
          value={local ? palace : url}
          onChange={local ? setPalace : setUrl}
          placeholder={local ? '~/.mempalace/palace' : 'http://10.0.0.5:8765'}
          literal
          testId={local ? 'add-hub-palace' : 'add-hub-url'}
        />
        <TextField
          label="Name"
          optional
          fieldClass="field-name"
          value={name}
          onChange={setName}
          placeholder={local ? 'folder name' : 'host-port'}
          literal
          testId="add-hub-name"
        />
        <button type="submit" className="btn btn-primary field-submit" disabled={pending || !ready} data-testid="add-hub-submit">
          <Plus size={14} aria-hidden /> Add hub
        </button>
      </div>
      {kind === 'local' ? (
        <label className="hint hub-create">
          <input type="checkbox" checked={create} onChange={(e) => setCreate(e.target.checked)} data-testid="add-hub-create" /> Create{' '}
          <code>logstream.sqlite3</code> with MemPalace's schema if the folder has no hub yet
        </label>
      ) : (
        <>
          <div className="field-row">
            <TextField
              label="Token"
              optional
              fieldClass="field-grow"
              type="password"
              mono
              value={token}
              onChange={setToken}
              literal
              testId="add-hub-token"
            />
          </div>
          <p className="hint">
            The server's bearer token (<code>mempalace serve --token</code>). Muster checks it against the server, keeps a copy in its home
            readable only by you, and never shows it again. Leave it empty for a server without a token. From a file:{' '}
            <code>muster hubs add --url URL --token-file FILE</code>.
          </p>
        </>
      )}
      <InlineError error={error} />
    </form>
  )
}
