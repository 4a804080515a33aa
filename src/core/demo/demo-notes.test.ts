import { describe, expect, it } from 'vitest'
import { makeRepo } from '../../../test/helpers/git-repo'
import { tmpDir } from '../../../test/helpers/tmp'
import { join } from 'node:path'
import { appendedBody, catSortUniqBody } from './content/notes'

describe('the demo writes the bytes real git notes commands write', () => {
  it('appendedBody = git notes add + append; catSortUniqBody = git notes merge -s cat_sort_uniq', async () => {
    const a = { agent: 'q', timestamp: '2026-01-01T00:00:00Z', type: 'progress', content: 'first — ✅' }
    const b = { agent: 'q', timestamp: '2026-01-02T00:00:00Z', type: 'progress', content: 'build box' }
    const c = { agent: 'q', timestamp: '2026-01-01T12:00:00Z', type: 'progress', content: 'laptop' }
    const repo = await makeRepo()
    const sha = await repo.commit('x')
    await repo.note('squad/q', sha, a)
    await repo.note('squad/q', sha, b, 'append')
    expect((await repo.git(['notes', '--ref=squad/q', 'show', sha])) + '\n').toBe(appendedBody(a, b))
    const clone = await makeRepo(join(tmpDir(), 'clone'))
    await clone.git(['fetch', '-q', repo.dir, 'refs/heads/main:refs/remotes/origin/main', 'refs/notes/squad/q:refs/notes/squad/q'])
    await repo.note('squad/q', sha, c, 'append')
    await clone.note('squad/q', sha, { ...c, content: 'other machine' }, 'append')
    await repo.git(['fetch', '-q', clone.dir, 'refs/notes/squad/q:refs/notes/remotes/clone/squad/q'])
    await repo.git(['notes', '--ref=squad/q', 'merge', '-q', '-s', 'cat_sort_uniq', 'refs/notes/remotes/clone/squad/q'])
    expect((await repo.git(['notes', '--ref=squad/q', 'show', sha])) + '\n').toBe(
      catSortUniqBody(appendedBody(a, b, c), appendedBody(a, b, { ...c, content: 'other machine' }))
    )
  })
})
