/**
 * This browser's side of phone push: asks for permission to notify, subscribes with the browser's
 * own push service under this home's VAPID key (`push.key`), and hands the subscription to Muster.
 * Only where a service worker runs (`muster serve` over HTTPS, or on localhost).
 */

/** Where this page remembers which subscribed device it is (a device id, nothing secret). */
const THIS_DEVICE = 'muster.push.device'

/** Why this page cannot subscribe, or null when it can. */
export function pushUnavailable(): string | null {
  // the desktop app's page (app://) has the APIs but no service worker of Muster's; plain HTTP on
  // the LAN is not a secure context, where browsers offer neither
  const served = location.protocol === 'https:' || location.protocol === 'http:'
  if (!served || !window.isSecureContext || !('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window))
    return 'Push needs Muster in a browser (muster serve over HTTPS, or on localhost); the desktop app shows its own notifications'
  if (Notification.permission === 'denied') return 'Notifications are blocked for this page: allow them in the browser’s site settings'
  return null
}

/** The id of the device this page subscribed, or null. */
export function thisDevice(): string | null {
  try {
    return localStorage.getItem(THIS_DEVICE)
  } catch {
    return null
  }
}

/** Remembers (or forgets, with null) which device this page is. */
export function setThisDevice(id: string | null): void {
  try {
    if (id) localStorage.setItem(THIS_DEVICE, id)
    else localStorage.removeItem(THIS_DEVICE)
  } catch {
    /* storage off: the list just does not mark this device */
  }
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const bin = atob(base64url.replace(/-/g, '+').replace(/_/g, '/'))
  const out = new Uint8Array(new ArrayBuffer(bin.length))
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i)
  return out
}

const sameKey = (a: ArrayBuffer | null | undefined, b: Uint8Array): boolean =>
  !!a && a.byteLength === b.length && new Uint8Array(a).every((x, i) => x === b[i])

/** Subscribes this browser under `publicKey` (a subscription under another key is replaced); its JSON. */
export async function subscribeThisBrowser(publicKey: string): Promise<PushSubscriptionJSON> {
  const why = pushUnavailable()
  if (why) throw new Error(why)
  if ((await Notification.requestPermission()) !== 'granted') throw new Error('Notifications were not allowed for this page')
  const reg = await Promise.race([
    navigator.serviceWorker.ready,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the service worker is not running on this page')), 10_000))
  ])
  const key = keyBytes(publicKey)
  let sub = await reg.pushManager.getSubscription()
  if (sub && !sameKey(sub.options.applicationServerKey, key)) {
    await sub.unsubscribe()
    sub = null
  }
  try {
    sub ??= await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key })
  } catch (err) {
    // the browser's own words ("Registration failed - push service not available") after what was tried
    throw new Error(`This browser could not subscribe with its push service: ${(err as Error).message}`)
  }
  return sub.toJSON()
}

/** Ends this browser's subscription, if it has one. */
export async function unsubscribeThisBrowser(): Promise<void> {
  if (!('serviceWorker' in navigator)) return
  const reg = await navigator.serviceWorker.getRegistration()
  const sub = await reg?.pushManager.getSubscription()
  await sub?.unsubscribe()
}
