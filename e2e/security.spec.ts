import { request as pwRequest } from '@playwright/test'
import { test, expect } from './fixtures'

test('a request without the token is refused, pages and API alike', async ({ served }) => {
  const anon = await pwRequest.newContext()
  const api = await anon.post(`${served.baseUrl}api/call/app.info`, { data: {} })
  expect(api.status()).toBe(401)
  expect((await api.json()).error).toMatch(/token/)
  expect((await anon.get(served.baseUrl)).status()).toBe(401)
  expect((await anon.get(`${served.baseUrl}api/events`)).status()).toBe(401)
  const wrong = await anon.post(`${served.baseUrl}api/call/app.info`, { data: {}, headers: { authorization: 'Bearer wrong' } })
  expect(wrong.status()).toBe(401)
  await anon.dispose()
})

test('a page opened without the token shows the refusal, not the dashboard', async ({ page, served }) => {
  const res = await page.goto(served.baseUrl)
  expect(res?.status()).toBe(401)
  await expect(page.locator('body')).toContainText('token')
})

test('the token in the URL is removed from the address bar after load', async ({ page, served }) => {
  await page.goto(served.openUrl)
  await expect(page.getByTestId('screen-overview')).toBeVisible()
  expect(page.url()).not.toContain('token=')
})

/** The policy the UI must carry, written out here (not imported) so a weakened policy fails. */
const STRICT_CSP: Record<string, string> = {
  'default-src': "'self'",
  'script-src': "'self'",
  'style-src': "'self'",
  'img-src': "'self' data:",
  'font-src': "'self' data:",
  'connect-src': "'self'",
  // the installable web app's service worker and manifest, from the app itself only
  'worker-src': "'self'",
  'manifest-src': "'self'",
  'object-src': "'none'",
  'base-uri': "'none'",
  'form-action': "'none'",
  'frame-ancestors': "'none'"
}

function directives(policy: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/)
    if (name) out[name.toLowerCase()] = sources.join(' ')
  }
  return out
}

test('the app is served with the strict CSP: no unsafe-inline, forms, frames, plugins or base', async ({ served }) => {
  const authed = await pwRequest.newContext()
  const page = await authed.get(served.openUrl)
  expect(page.status()).toBe(200)
  const header = page.headers()['content-security-policy'] ?? ''
  expect(header).not.toMatch(/unsafe-/)
  expect(directives(header)).toEqual(STRICT_CSP)
  // the meta tag of the built page says the same, less what a meta tag cannot carry
  const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(await page.text())?.[1]
  const { 'frame-ancestors': _headerOnly, ...metaExpected } = STRICT_CSP
  expect(directives((meta ?? '').replaceAll('&#39;', "'"))).toEqual(metaExpected)
  // assets and API answers carry it too
  const script = /src="\.?\/?(assets\/[^"]+\.js)"/.exec(await page.text())?.[1]
  expect(script).toBeTruthy()
  expect(
    directives(
      (await authed.get(`${served.baseUrl}${script}?token=${served.openUrl.split('token=')[1]}`)).headers()['content-security-policy'] ?? ''
    )
  ).toEqual(STRICT_CSP)
  await authed.dispose()
})

test('no screen and no dialog breaks the CSP, and the palette still locks the page scroll', async ({ page, demo }) => {
  test.setTimeout(120_000)
  await page.addInitScript(() => {
    const seen: string[] = []
    ;(window as unknown as { __cspViolations: string[] }).__cspViolations = seen
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.effectiveDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber} ${e.sample}`)
    )
  })
  const consoleCsp: string[] = []
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) consoleCsp.push(m.text())
  })
  const violations = (): Promise<string[]> => page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)
  const found: string[] = []
  for (const [hash, testId] of [
    ['#/overview', 'screen-overview'],
    ['#/directives', 'screen-directives'],
    ['#/timeline', 'screen-timeline'],
    ['#/patches', 'diff-view'],
    ['#/approvals', 'screen-approvals'],
    ['#/notes', 'screen-notes'],
    ['#/settings', 'screen-settings']
  ] as const) {
    await page.goto(`${demo.openUrl}${hash}`)
    await expect(page.getByTestId(testId)).toBeVisible()
    found.push(...(await violations()).map((v) => `${hash}: ${v}`))
  }
  await page.keyboard.press('Control+k')
  await expect(page.getByTestId('command-palette')).toBeVisible()
  // Radix's scroll lock, moved from a <style> element into a CSSOM sheet, still applies
  await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).overflow)).toBe('hidden')
  found.push(...(await violations()).map((v) => `palette: ${v}`))
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('command-palette')).toHaveCount(0)
  await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).overflow)).not.toBe('hidden')
  expect(found).toEqual([])
  expect(consoleCsp).toEqual([])
})
