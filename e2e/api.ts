/** Calls the served app's contract over HTTP, as the dashboard does, for e2e checks against its state. */
import type { APIRequestContext } from '@playwright/test'
import type { Served } from './fixtures'

/** Calls a contract method of the served app over HTTP; throws with the server's error text. */
export async function call<T>(request: APIRequestContext, served: Served, method: string, input: unknown): Promise<T> {
  const token = new URL(served.openUrl).searchParams.get('token') ?? ''
  const res = await request.post(`${served.baseUrl.replace(/\/$/, '')}/api/call/${method}`, {
    headers: { Authorization: `Bearer ${token}` },
    data: input
  })
  const body = (await res.json()) as T & { error?: string }
  if (!res.ok()) throw new Error(`${method}: ${body.error}`)
  return body
}
