/** The operator's agent id, used when Muster acts on the hub on the operator's behalf. */
import { useState, type FormEvent } from 'react'
import { Check } from 'lucide-react'
import { useSettings, useUpdateSettings } from '../../api/queries'
import { TextField } from '../../components/form-field'
import { InlineError } from '../../components/state-views'
import { SubmitButton } from '../../components/action-button'

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
  const [value, setValue] = useState(saved)

  const submit = (e: FormEvent): void => {
    e.preventDefault()
    update.mutate({ operatorId: value.trim() })
  }
  const dirty = value.trim() !== saved

  return (
    <form className="form" onSubmit={submit} data-testid="operator-form">
      <div className="field-row">
        <TextField
          label="Operator id"
          fieldClass="field-grow"
          mono
          literal
          value={value}
          onChange={setValue}
          placeholder="operator@workstation"
          disabled={loading}
          testId="operator-id"
        />
        <SubmitButton busy={update.isPending} icon={Check} className="btn field-submit" disabled={!dirty} testId="operator-save">
          Save
        </SubmitButton>
      </div>
      <p className="hint">The agent id Muster uses for your acks, replies and task requests on the hub.</p>
      {!dirty && update.isSuccess && <p className="hint text-ok">Saved.</p>}
      <InlineError error={update.error ?? loadError} />
    </form>
  )
}
