/**
 * The addresses `muster://` links open (src/shared/deep-link.ts turns a link into one of these
 * hashes; the desktop app sets it on its window): each selects the item it names on the demo fleet.
 */
import { deepLinkHash } from '../src/shared/deep-link'
import { call } from './api'
import { test, expect } from './fixtures'

test('a link opens the approval, the patch or the thread it names', async ({ page, request, demo }) => {
  type Pending = { correlation_id: string; agent: string; project: string; hub: string }
  const { pending } = await call<{ pending: Pending[] }>(request, demo, 'approvals.list', {})
  expect(pending.length).toBeGreaterThan(2)
  const last = pending[pending.length - 1]!
  await page.goto(`${demo.openUrl}${deepLinkHash({ kind: 'approval', id: last.correlation_id, hub: last.hub })}`)
  const detail = page.getByTestId('approval-detail')
  await expect(detail).toContainText(last.agent)
  await expect(detail).toContainText(last.project)

  const { patches } = await call<{ patches: { event: { id: string; from_agent: string } }[] }>(request, demo, 'patch.list', {
    hub: last.hub
  })
  expect(patches.length).toBeGreaterThan(1)
  const patch = patches[patches.length - 1]!
  await page.goto(`${demo.openUrl}${deepLinkHash({ kind: 'patch', id: patch.event.id, hub: last.hub })}`)
  await expect(page.getByTestId('patch-detail')).toHaveAttribute('aria-label', `Patch ${patch.event.id}`)

  await page.goto(`${demo.openUrl}${deepLinkHash({ kind: 'thread', id: last.correlation_id, hub: last.hub })}`)
  await expect(page.getByTestId('screen-timeline')).toBeVisible()
  await expect(page.getByTestId('timeline-filter-correlation_id')).toHaveValue(last.correlation_id)
})
