/**
 * Settings → Phone push (issue 35, point 7's list): the subscribed devices with their name, when
 * each was last seen and its push service, a failure shown on its device, and Revoke (asked
 * first) forgetting it; at phone and desktop widths, light and dark, axe clean.
 */
import { createECDH, randomBytes } from 'node:crypto'
import { call } from './api'
import { seriousViolations } from './axe'
import { test, expect } from './fixtures'

/** A subscription as a browser hands it over (its push service is never reached here). */
function subscription(n: number) {
  const ecdh = createECDH('prime256v1')
  ecdh.generateKeys()
  return {
    endpoint: `https://push.example.net/send/device-${n}-${randomBytes(6).toString('hex')}`,
    expirationTime: null,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') }
  }
}

test('the device list shows each device and revokes one after asking', async ({ page, served, request }) => {
  await call(request, served, 'push.subscribe', { name: 'Pixel 9', subscription: subscription(1) })
  await call(request, served, 'push.subscribe', { name: 'iPad \u202eevil', subscription: subscription(2) })
  await page.goto(served.openUrl.replace(/\/?\?/, '/?') + '#/settings')
  const panel = page.getByTestId('push-panel')
  await expect(panel.getByTestId('push-device')).toHaveCount(2)
  const pixel = panel.getByTestId('push-device').filter({ hasText: 'Pixel 9' })
  await expect(pixel).toContainText(/last seen (just now|\d+ ?s ago|now)/)
  await expect(pixel).toContainText('push.example.net')
  // a hidden character in a name is shown, not obeyed
  await expect(panel.getByTestId('push-device').filter({ hasText: 'iPad' })).toContainText('\\u202e')

  for (const [w, h] of [
    [390, 844],
    [768, 1024],
    [1280, 800],
    [1600, 1000]
  ] as const) {
    await page.setViewportSize({ width: w, height: h })
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme)
      await page.getByTestId('settings-push').evaluate((el) => el.scrollIntoView({ block: 'start' }))
      await page.screenshot({ path: `e2e/artifacts/push-devices-${w}-${theme}.png` })
    }
  }
  expect(await seriousViolations(page, '[data-testid="settings-push"]')).toEqual([])

  await pixel.getByTestId('push-revoke').click()
  await pixel.getByTestId('push-revoke-confirm').click()
  await expect(panel.getByTestId('push-device')).toHaveCount(1)
  const { devices } = await call<{ devices: { name: string }[] }>(request, served, 'push.devices', {})
  expect(devices.map((d) => d.name)).toEqual(['iPad \u202eevil'])
})

test('subscribing this browser: subscribed with its push service, or a clear refusal and nothing stored', async ({
  page,
  served,
  context,
  request
}) => {
  await context.grantPermissions(['notifications'])
  await page.goto(served.openUrl.replace(/\/?\?/, '/?') + '#/settings')
  await page.evaluate(async () => void (await navigator.serviceWorker.ready))
  await page.getByTestId('push-name').fill('this laptop')
  await page.getByTestId('push-subscribe').click()
  const panel = page.getByTestId('push-panel')
  // Chromium without a push service of its own (an incognito profile, no vendor keys) refuses;
  // a browser with one subscribes
  await expect(
    panel.getByTestId('push-device').or(panel.getByText(/^This browser could not subscribe with its push service: .+/))
  ).toBeVisible()
  const { devices } = await call<{ devices: { name: string }[] }>(request, served, 'push.devices', {})
  if (await panel.getByTestId('push-device').count()) expect(devices.map((d) => d.name)).toEqual(['this laptop'])
  else expect(devices).toEqual([])
})
