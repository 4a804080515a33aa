/** The operator's agent id, used when Muster acts on the hub on the operator's behalf. */
import { useId, useState, type FormEvent } from 'react'
import { Check, LoaderCircle } from 'lucide-react'
import { useSettings, useUpdateSettings } from '../../api/queries'
import { InlineError } from '../../components/state-views'

/** Text input + Save; the server validates the id. Re-mounts when the saved value changes. */
export function OperatorForm() {
  const settings = useSettings()
  const update = useUpdateSettings()
  const saved = settings.data?.operatorId ?? ''
  return <OperatorFormFields key={saved} saved={saved} update={update} loading={settings.isPending} loadError={settings.error} />
}

function OperatorFormFields({
  saved,
  update,
  loading,
  loadError
}: {
  saved: string
  update: ReturnType<typeof useUpdateSettings>
  loading: boolean
  loadError: Error | null
}) {
  const id = useId()
  const [value, setValue] = useState(saved)

  const submit = (e: FormEvent): void => {
    e.preventDefault()
    update.mutate({ operatorId: value.trim() })
  }
  const dirty = value.trim() !== saved

  return (
    <form className="form" onSubmit={submit} data-testid="operator-form">
      <div className="field-row">
        <div className="field field-grow">
          <label htmlFor={`${id}-op`}>Operator id</label>
          <input
            id={`${id}-op`}
            className="input mono"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            placeholder="operator@workstation"
            spellCheck={false}
            autoComplete="off"
            disabled={loading}
            data-testid="operator-id"
          />
        </div>
        <button type="submit" className="btn field-submit" disabled={!dirty || update.isPending} data-testid="operator-save">
          {update.isPending ? <LoaderCircle size={14} className="spin" aria-hidden /> : <Check size={14} aria-hidden />}
          Save
        </button>
      </div>
      <p className="hint">The agent id Muster uses for your acks, replies and task requests on the hub.</p>
      {!dirty && update.isSuccess && <p className="hint text-ok">Saved.</p>}
      <InlineError error={update.error ?? loadError} />
    </form>
  )
}
