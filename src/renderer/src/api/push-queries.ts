/** react-query bindings of phone push: the subscribed devices, subscribing this browser, revoking one. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { MethodOutput } from '../../../shared/api'
import { setThisDevice, subscribeThisBrowser, thisDevice, unsubscribeThisBrowser } from '../lib/web-push'
import { client } from './client'
import { queryKey } from './queries'

/** The subscribed devices. */
export const usePushDevices = () =>
  useQuery<MethodOutput<'push.devices'>, Error>({
    queryKey: queryKey('push.devices', {}),
    queryFn: () => client.call('push.devices', {})
  })

function usePushChange<I>(run: (input: I) => Promise<unknown>) {
  const qc = useQueryClient()
  return useMutation<unknown, Error, I>({
    mutationFn: run,
    onSettled: () => qc.invalidateQueries({ queryKey: ['push.devices'] })
  })
}

/** Subscribes this browser as `name`. */
export const useSubscribeThis = () =>
  usePushChange(async ({ name }: { name: string }) => {
    const { public_key } = await client.call('push.key', {})
    const json = await subscribeThisBrowser(public_key)
    const { device } = await client.call('push.subscribe', {
      name,
      subscription: {
        endpoint: json.endpoint ?? '',
        expirationTime: json.expirationTime ?? null,
        keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' }
      }
    })
    setThisDevice(device.id)
    return device
  })

/** Revokes a device (this browser's own subscription ends too when it is this one). */
export const useRevokeDevice = () =>
  usePushChange(async ({ id }: { id: string }) => {
    await client.call('push.revoke', { id })
    if (thisDevice() === id) {
      setThisDevice(null)
      await unsubscribeThisBrowser().catch(() => undefined)
    }
  })
