import { describe, expect, it } from 'vitest'
import type { NoteFinding, NotedCommit, NotesSnapshot, SquadNote } from '../../../../shared/api'
import { commitRows, findingsByCommit, vocabulary } from './notes-model'

const note = (ns: string, commit: string, type: string, extra: Partial<SquadNote> = {}): SquadNote => ({
  id: `${ns}-${commit}-${type}`,
  ref: `refs/notes/squad/${ns}`,
  namespace: ns,
  commit,
  line: 1,
  agent: ns,
  timestamp: '2026-01-01T00:00:00Z',
  type,
  summary: `${type} by ${ns}`,
  promote: false,
  archive: false,
  data: {},
  ...extra
})
const commit = (sha: string, subject: string, notes: SquadNote[]): NotedCommit => ({
  sha,
  subject,
  author: 'a',
  date: '2026-01-01T00:00:00Z',
  merged: true,
  bodies: [...new Set(notes.map((n) => n.namespace))].map((ns) => ({
    ref: `refs/notes/squad/${ns}`,
    namespace: ns,
    commit: sha,
    blob: 'b',
    shape: 'object' as const,
    bytes: 1,
    notes: notes.filter((n) => n.namespace === ns),
    unparseable: []
  }))
})
const finding = (level: 'error' | 'warning', commitSha: string | null, ns: string | null): NoteFinding => ({
  level,
  code: 'missing-field',
  ref: ns && `refs/notes/squad/${ns}`,
  commit: commitSha,
  line: 1,
  noteId: null,
  message: 'm'
})

const snap: NotesSnapshot = {
  project: 'p',
  repo: '/r',
  problem: null,
  defaultBranch: 'refs/heads/main',
  refs: [
    { ref: 'refs/notes/squad/worf', namespace: 'worf', shared: false, bodies: 1, notes: 1 },
    { ref: 'refs/notes/squad/data', namespace: 'data', shared: false, bodies: 2, notes: 3 }
  ],
  commits: [
    commit('aaaa', 'feat: auth', [
      note('data', 'aaaa', 'decision', { promote: true }),
      note('data', 'aaaa', 'progress'),
      note('worf', 'aaaa', 'security')
    ]),
    commit('bbbb', 'docs: threat model', [note('data', 'bbbb', 'research', { archive: true })])
  ],
  findings: [finding('error', 'aaaa', 'worf'), finding('warning', null, null)],
  counts: { notes: 4, bodies: 3, commits: 2, errors: 1, warnings: 1 }
}

describe('notes model', () => {
  const byCommit = findingsByCommit(snap.findings)
  const all = { namespace: '', type: '', text: '', onlyFindings: false }

  it('rows carry counts, flags and findings per commit', () => {
    expect(commitRows(snap, byCommit, all).map((r) => [r.commit.sha, r.notes, r.namespaces, r.promote, r.archive, r.errors])).toEqual([
      ['aaaa', 3, ['data', 'worf'], 1, 0, 1],
      ['bbbb', 1, ['data'], 0, 1, 0]
    ])
    expect(byCommit.get('')).toHaveLength(1)
    expect(vocabulary(snap)).toEqual({ namespaces: ['data', 'worf'], types: ['decision', 'progress', 'research', 'security'] })
  })

  it('filters by namespace, type, text and findings', () => {
    expect(commitRows(snap, byCommit, { ...all, namespace: 'worf' }).map((r) => [r.commit.sha, r.notes, r.errors])).toEqual([
      ['aaaa', 1, 1]
    ])
    expect(commitRows(snap, byCommit, { ...all, namespace: 'data' }).map((r) => r.errors)).toEqual([0, 0])
    expect(commitRows(snap, byCommit, { ...all, type: 'research' }).map((r) => r.commit.sha)).toEqual(['bbbb'])
    expect(commitRows(snap, byCommit, { ...all, text: 'THREAT' }).map((r) => r.commit.sha)).toEqual(['bbbb'])
    expect(commitRows(snap, byCommit, { ...all, text: 'security by' }).map((r) => r.commit.sha)).toEqual(['aaaa'])
    expect(commitRows(snap, byCommit, { ...all, onlyFindings: true }).map((r) => r.commit.sha)).toEqual(['aaaa'])
  })
})
