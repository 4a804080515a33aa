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
