/**
 * The hook's spool (`hook-jobs.ts`) on the real file system: a job becomes drainable only once
 * offered, one claim wins, a gone drainer's claim is taken again, a hook's unfinished job is left
 * alone until it is an orphan.
 */
import { spawn } from 'node:child_process'
import { existsSync, readdirSync, renameSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tmpDir } from '../../../test/helpers/tmp'
import { HOOK_JOBS_DIR, claimJobs, jobsWaiting, prepareJob, releaseJobs, takeJob, type HookJob } from './hook-jobs'

const job = (n: number): HookJob => ({
  options: { agent: 'mac-claude', home: '/h' },
  cwd: '/w',
  env: {},
  call: {
    harness: 'claude-code',
    event: 'PreToolUse',
    session_id: 's',
    cwd: '/w',
    tool_use_id: null,
    transcript_path: null,
    suggestions: null,
    tool_name: 'Bash',
    tool_input: { command: `npm test ${n}` }
  },
  rule: { id: 1, agent_pattern: 'mac-*', tool_name: 'Bash', input_pattern: 'npm test*', signature: null }
})

const names = (home: string): string[] => readdirSync(join(home, HOOK_JOBS_DIR)).sort()

describe('hook jobs spool', () => {
  it('a job is drainable only once offered; a withdrawn one leaves nothing', () => {
    const home = tmpDir()
    expect(jobsWaiting(home)).toBe(false)
    const a = prepareJob(home, job(1))
    const b = prepareJob(home, job(2))
    expect(jobsWaiting(home)).toBe(false)
    expect(claimJobs(home)).toEqual([])
    a.offer()
    b.withdraw()
    expect(jobsWaiting(home)).toBe(true)
    const claimed = claimJobs(home)
    expect(claimed).toHaveLength(1)
    expect(claimed[0]).toMatch(new RegExp(`\\.json\\.${process.pid}\\.claim$`))
    // claimed: no other drainer gets it
    expect(claimJobs(home)).toEqual([])
    expect(jobsWaiting(home)).toBe(false)
    expect(takeJob(claimed[0]!)).toEqual(job(1))
    expect(names(home)).toEqual([])
  })

  it('jobs are claimed oldest first and handed back by a drain that stopped', () => {
    const home = tmpDir()
    for (let i = 0; i < 3; i++) prepareJob(home, job(i)).offer()
    const claimed = claimJobs(home)
    expect(claimed.map((f) => takeJob(f)!.call.tool_input.command)).toEqual(['npm test 0', 'npm test 1', 'npm test 2'])
    prepareJob(home, job(3)).offer()
    const again = claimJobs(home)
    releaseJobs(again)
    expect(jobsWaiting(home)).toBe(true)
    expect(claimJobs(home)).toHaveLength(1)
  })

  it("a gone drainer's claim is claimed again; a live one's is left to it", async () => {
    const home = tmpDir()
    prepareJob(home, job(1)).offer()
    prepareJob(home, job(2)).offer()
    const [one, two] = claimJobs(home)
    // a process that has exited: its pid names a gone drainer
    const child = spawn(process.execPath, ['-e', '0'])
    const gone = await new Promise<number>((res) => child.on('close', () => res(child.pid!)))
    renameSync(one!, one!.replace(/\.\d+\.claim$/, `.${gone}.claim`))
    // a live process that is not this one (the test runner's parent)
    renameSync(two!, two!.replace(/\.\d+\.claim$/, `.${process.ppid}.claim`))
    const taken = claimJobs(home)
    expect(taken.map((f) => takeJob(f)!.call.tool_input.command)).toEqual(['npm test 1'])
    expect(names(home)).toEqual([expect.stringMatching(new RegExp(`\\.json\\.${process.ppid}\\.claim$`))])
  })

  it("a hook's unfinished job is left alone until it is an hour old; a file that is not a job is dropped", () => {
    const home = tmpDir()
    prepareJob(home, job(1))
    prepareJob(home, job(2))
    const [old] = names(home)
    const hourAgo = (Date.now() - 3600_000 - 60_000) / 1000
    utimesSync(join(home, HOOK_JOBS_DIR, old!), hourAgo, hourAgo)
    expect(claimJobs(home)).toEqual([])
    expect(names(home)).toHaveLength(1)
    expect(names(home)[0]).not.toBe(old)
    writeFileSync(join(home, HOOK_JOBS_DIR, 'x.json'), '{"torn":')
    const [bad] = claimJobs(home)
    expect(takeJob(bad!)).toBeNull()
    expect(existsSync(bad!)).toBe(false)
  })
})
