import { describe, expect, it } from 'vitest'
import { makeProject, tmpDir } from '../../test/helpers/tmp'
import { runCliIn as run } from '../../test/helpers/cli'

describe('muster chain check', () => {
  it('allowed: prints the path, exit 0', async () => {
    const home = tmpDir()
    expect(await run(home, 'chain', 'check', '--chain', 'CRO → CFO', '--target', 'coo')).toEqual({
      code: 0,
      out: 'allowed: cro → cfo → coo\n',
      err: ''
    })
    expect((await run(home, 'chain', 'check', '--chain', '', '--target', 'cfo')).out).toBe('allowed: cfo\n')
  })

  it('blocked: the rule, the reason, the [BLOCKED: ...] line and the assumption line; exit 2', async () => {
    const home = tmpDir()
    const r = await run(home, 'chain', 'check', '--chain', 'cro→cfo→coo', '--target', 'chro')
    expect(r.code).toBe(2)
    expect(r.out).toBe(
      'blocked (depth): maximum depth 2: cro → cfo → coo → chro is a third hop\n' +
        '[BLOCKED: cannot invoke chro — maximum depth 2: cro → cfo → coo → chro is a third hop]\n' +
        'State assumption used instead: <the explicit assumption you make instead>\n'
    )
    const critic = await run(
      home,
      'chain',
      'check',
      '--chain',
      'cro → cfo',
      '--target',
      'coo',
      '--phase',
      '3',
      '--caller',
      'executive-mentor',
      '--json'
    )
    expect(critic.code).toBe(2)
    expect(JSON.parse(critic.out)).toMatchObject({
      allowed: false,
      rule: 'isolation',
      blocked: '[BLOCKED: cannot invoke coo — in phase 3 the critic may reference other roles, not invoke them]'
    })
    expect((await run(home, 'chain', 'check', '--chain', 'cro', '--target', 'cfo', '--phase', '2')).out).toMatch(
      /^blocked \(isolation\): board-meeting phase 2 allows no invocations\n/
    )
    expect((await run(home, 'chain', 'check', '--chain', 'cro → cfo', '--target', 'cro')).out).toMatch(/^blocked \(circular\)/)
    expect((await run(home, 'chain', 'check', '--chain', 'cfo', '--target', 'CFO')).out).toMatch(
      /^blocked \(self\): cfo cannot invoke itself\n/
    )
  })

  it('bad input: exit 1; unknown roles are warnings on stderr', async () => {
    const home = tmpDir()
    expect(await run(home, 'chain', 'check', '--chain', 'cro', '--target', 'cfo', '--phase', '4')).toMatchObject({
      code: 1,
      err: "muster: invalid --phase '4': use 1, 2 or 3\n"
    })
    const w = await run(home, 'chain', 'check', '--chain', 'cro', '--target', 'wizard')
    expect(w).toMatchObject({ code: 0, out: 'allowed: cro → wizard\n' })
    expect(w.err).toMatch(/^muster: warning: unknown role 'wizard'/)
  })
})

describe('muster chain findings', () => {
  it('lists violations in role files with the file, line, rule and the answer to use', async () => {
    const home = tmpDir()
    const root = makeProject(tmpDir(), 'board', {
      gm: '<!-- L0: v1 | a | b -->\n# GM\n## Board meeting\n### Phase 2\n[INVOKE:cfo|burn?]\n'
    })
    await run(home, 'projects', 'add', root)
    const r = await run(home, 'chain', 'findings')
    expect(r.code).toBe(0)
    expect(r.out).toBe(
      '✗ board/.muse/gm.md:5  INVOKE:cfo blocked (isolation): board-meeting phase 2 allows no invocations [isolation]\n' +
        '    answer: [BLOCKED: cannot invoke cfo — board-meeting phase 2 allows no invocations]\n' +
        '1 error, 0 warnings in 1 role file and 0 tagged events\n'
    )
  })
})
