import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tmpDir } from '../../../test/helpers/tmp'
import type { HubEvent, Project } from '../../shared/api'
import { defaultProject, defaultProjectOf, rankProjects } from './preflight'

function projects(): Project[] {
  const dir = tmpDir()
  return ['atlas', 'dya'].map((name) => {
    const path = join(dir, name)
    mkdirSync(path)
    return { name, path, key: name.toUpperCase(), addedAt: new Date().toISOString() }
  })
}

const patch = (stream: string) => ({ id: 'evt_1', type: 'patch.ready', stream, branch: 'fix/x', base_commit: null }) as unknown as HubEvent

describe('the default project of a patch', () => {
  it("is the stream's project without asking git, the same one the full ranking picks", async () => {
    const list = projects()
    const fast = await defaultProjectOf(list, patch('project/dya'))
    expect(fast.project).toBe('dya')
    expect(defaultProject(await rankProjects(list, patch('project/dya'))).project).toBe('dya')
  })

  it('falls back to the ranking when the stream names no project', async () => {
    const list = projects()
    expect(await defaultProjectOf(list, patch('ops/deploys'))).toEqual(defaultProject(await rankProjects(list, patch('ops/deploys'))))
    expect((await defaultProjectOf(list, patch('ops/deploys'))).project).toBeNull()
  })
})
