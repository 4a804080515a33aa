/** Desktop notifications recorded instead of shown (headless Chromium has no notification centre). */
import type { Page } from '@playwright/test'

/** One notification the page showed. */
export interface ShownNotification {
  title: string
  body?: string
}

/**
 * Before the page loads, puts a Notification stand-in in its place that records what is shown;
 * its permission starts as `permission` and becomes `granted` when the page asks. Returns a reader
 * of what was shown so far.
 */
export async function recordNotifications(
  page: Page,
  permission: NotificationPermission = 'granted'
): Promise<() => Promise<ShownNotification[]>> {
  await page.addInitScript((initial: NotificationPermission) => {
    const sent: { title: string; body?: string }[] = []
    class FakeNotification {
      static permission: NotificationPermission = initial
      static requestPermission(): Promise<NotificationPermission> {
        FakeNotification.permission = 'granted'
        return Promise.resolve('granted')
      }
      onclick: (() => void) | null = null
      constructor(title: string, options?: NotificationOptions) {
        sent.push({ title, body: options?.body })
      }
      close(): void {}
    }
    Object.assign(window, { __notes: sent })
    Object.defineProperty(window, 'Notification', { value: FakeNotification, configurable: true })
  }, permission)
  return () => page.evaluate(() => (window as unknown as { __notes: ShownNotification[] }).__notes.slice())
}
