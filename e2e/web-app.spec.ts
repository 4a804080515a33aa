/**
 * The installable app in Chromium (issue 35, point 1): the page served by `muster serve` is
 * installable (no installability errors, Muster's manifest), its service worker takes control and
 * caches the app shell but no API answer, and a push delivered into the real worker
 * (`ServiceWorker.deliverPushMessage`) shows the notification the payload describes.
 */
import { join } from 'node:path'
import { chromium } from '@playwright/test'
import { test, expect } from './fixtures'

test('installable, the worker caches the shell and never the API, and a push shows its notification', async ({ page, served, context }) => {
  await context.grantPermissions(['notifications'])
  const cdp = await context.newCDPSession(page)
  await page.goto(served.openUrl)
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope)
  expect(scope).toBe(`${served.baseUrl.replace(/\/$/, '')}/`)

  const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] }
  // Playwright's contexts are incognito profiles, where nothing installs: every other check passes
  expect(installabilityErrors.filter((e) => e.errorId !== 'in-incognito')).toEqual([])
  const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[]; data?: string }
  expect(manifest.url).toBe(`${served.baseUrl.replace(/\/$/, '')}/manifest.webmanifest`)
  expect(manifest.errors).toEqual([])
  expect(JSON.parse(manifest.data!)).toMatchObject({ name: 'Muster', display: 'standalone', start_url: '/#/needs' })

  // after a reload the page is controlled; what it asked of the API is not in the cache
  await page.reload()
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true)
  await expect(page.getByRole('navigation').first()).toBeVisible()
  const cached = await page.evaluate(async () => {
    const urls: string[] = []
    for (const key of await caches.keys()) for (const req of await (await caches.open(key)).keys()) urls.push(new URL(req.url).pathname)
    return urls
  })
  expect(cached).toContain('/')
  expect(cached.some((u) => u.startsWith('/assets/'))).toBe(true)
  expect(cached.filter((u) => u.startsWith('/api/'))).toEqual([])

  // a push delivered into the real worker shows what the payload says, and nothing else
  await cdp.send('ServiceWorker.enable')
  const registrationId = await new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e: { registrations: { registrationId: string; scopeURL: string }[] }) => {
      const r = e.registrations.find((x) => x.scopeURL === scope)
      if (r) resolve(r.registrationId)
    })
  })
  const message = {
    v: 1,
    kind: 'approval',
    id: 'evt_1',
    agent: 'claude-1',
    project: 'muse',
    tool: 'Bash',
    preview: 'git push --force',
    link: '#/approvals?hub=main&id=evt_1'
  }
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: served.baseUrl.replace(/\/$/, ''),
    registrationId,
    data: JSON.stringify(message)
  })
  await expect
    .poll(() =>
      page.evaluate(async () =>
        (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag }))
      )
    )
    .toEqual([{ title: 'claude-1 asks to use Bash', body: '[muse] git push --force', tag: 'approval:evt_1' }])
})

test('in a real profile (not incognito) nothing stands in the way of installing it, at phone size', async ({ served, workDir }, info) => {
  const ctx = await chromium.launchPersistentContext(join(workDir, 'profile'), {
    ...info.project.use.launchOptions,
    viewport: { width: 390, height: 844 }
  })
  try {
    const page = ctx.pages()[0] ?? (await ctx.newPage())
    await page.goto(served.openUrl)
    await page.evaluate(async () => void (await navigator.serviceWorker.ready))
    const cdp = await ctx.newCDPSession(page)
    const errors = async () =>
      ((await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] }).installabilityErrors.map(
        (e) => e.errorId
      )
    await expect.poll(errors).toEqual([])
    // the installed app opens on the needs-you queue
    await page.goto(`${served.baseUrl.replace(/\/$/, '')}/#/needs`)
    await expect(page.getByTestId('screen-needs')).toBeVisible()
  } finally {
    await ctx.close()
  }
})
