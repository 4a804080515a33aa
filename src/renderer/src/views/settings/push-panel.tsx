/**
 * Settings → Phone push: the devices that get a notification when something new needs you
 * (approvals first), each with its name, when it last subscribed and how its last message went, and
 * Revoke; and, in a browser that can, subscribing this one.
 */
import { useState } from 'react'
import { BellRing, Smartphone } from 'lucide-react'
import { usePushDevices, useRevokeDevice, useSubscribeThis } from '../../api/push-queries'
import { SubmitButton } from '../../components/action-button'
import { TextField } from '../../components/form-field'
import { ErrorState, InlineError, LoadingState } from '../../components/state-views'
import { Visible } from '../../components/visible'
import { useNow } from '../../hooks/use-now'
import { relativeTime } from '../../lib/format'
import { pushUnavailable, thisDevice } from '../../lib/web-push'
import { RemoveButton } from './remove-button'

/** The Phone push section of Settings. */
export function PushPanel() {
  const q = usePushDevices()
  const subscribe = useSubscribeThis()
  const revoke = useRevokeDevice()
  const now = useNow()
  const [name, setName] = useState('')
  const [confirming, setConfirming] = useState<string | null>(null)
  const unavailable = pushUnavailable()
  const mine = thisDevice()
  if (q.isPending) return <LoadingState label="Loading devices…" />
  if (!q.data)
    return <ErrorState title="Could not list the devices" error={q.error} onRetry={() => void q.refetch()} retrying={q.isFetching} />
  const devices = q.data.devices
  return (
    <div className="push-panel" data-testid="push-panel">
      {devices.length ? (
        <ul className="presence-creds" data-testid="push-devices">
          {devices.map((d) => (
            <li key={d.id} className="presence-cred" data-testid="push-device">
              <Smartphone size={16} aria-hidden />
              <span className="presence-cred-name">
                <Visible text={d.name} />
                {d.id === mine && <span className="muted"> (this browser)</span>}
              </span>
              <span className="muted presence-cred-where">
                last seen {relativeTime(d.last_seen, now)} · {new URL(d.service).host}
                {d.last_push_at && <> · last push {relativeTime(d.last_push_at, now)}</>}
              </span>
              <RemoveButton
                confirming={confirming === d.id}
                onAsk={() => (revoke.reset(), setConfirming(d.id))}
                onCancel={() => setConfirming(null)}
                onConfirm={() => revoke.mutate({ id: d.id }, { onSuccess: () => setConfirming(null) })}
                busy={revoke.isPending}
                question="Stop pushing to this device? Its subscription is forgotten."
                groupLabel={`Confirm revoking ${d.name}`}
                testId="push-revoke"
                confirmTestId="push-revoke-confirm"
              />
              {d.last_error && (
                <span className="hint text-error push-device-error" data-testid="push-device-error">
                  <Visible text={d.last_error} />
                </span>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No device gets push notifications yet.</p>
      )}
      {unavailable ? (
        <p className="hint" data-testid="push-unavailable">
          {unavailable}.
        </p>
      ) : (
        <form
          className="field-row"
          onSubmit={(e) => {
            e.preventDefault()
            subscribe.mutate({ name: name.trim() || 'this browser' }, { onSuccess: () => setName('') })
          }}
        >
          <TextField
            label="Device name"
            fieldClass="field-grow"
            value={name}
            onChange={setName}
            maxLength={80}
            placeholder="phone, tablet"
            testId="push-name"
          />
          <SubmitButton busy={subscribe.isPending} icon={BellRing} className="btn field-submit" testId="push-subscribe">
            {mine && devices.some((d) => d.id === mine) ? 'Renew this browser' : 'Notify this browser'}
          </SubmitButton>
        </form>
      )}
      <InlineError error={subscribe.error ?? revoke.error} />
    </div>
  )
}
