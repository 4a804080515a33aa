/**
 * Which project the Notes screen shows: `#/notes?project=X` when given, else the last one chosen,
 * else the first project (in registry order, up to a few) whose repository holds notes, so the
 * screen opens on something to read.
 */
import { useEffect, useState } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { client } from '../../api/client'
import { queryKey } from '../../api/queries'

const KEY = 'muster.notesProject'
/** Projects probed for notes when nothing was chosen yet (each probe reads one repository). */
const PROBE = 8

function fromHash(): string {
  const search = window.location.hash.split('?')[1] ?? ''
  return new URLSearchParams(search).get('project') ?? ''
}

function stored(): string {
  try {
    return localStorage.getItem(KEY) ?? ''
  } catch {
    return ''
  }
}

/** The chosen project ('' while unknown) and a setter that remembers the choice. */
export function useNotesProject(projects: readonly string[] | undefined): [string, (p: string) => void] {
  const qc = useQueryClient()
  const [chosen, setChosen] = useState(() => fromHash() || stored())
  const valid = !!projects && projects.includes(chosen)

  useEffect(() => {
    if (!projects || valid || projects.length === 0) return
    let cancelled = false
    void (async () => {
      for (const project of projects.slice(0, PROBE)) {
        const snap = await client.call('notes.list', { project }).catch(() => null)
        if (cancelled) return
        if (snap) qc.setQueryData(queryKey('notes.list', { project }), snap)
        if (snap && snap.counts.bodies > 0) return setChosen(project)
      }
      if (!cancelled) setChosen(projects[0]!)
    })()
    return () => {
      cancelled = true
    }
  }, [projects, valid, qc])

  const choose = (p: string): void => {
    setChosen(p)
    try {
      localStorage.setItem(KEY, p)
    } catch {
      // not remembered; the choice still holds for this visit
    }
    window.history.replaceState(window.history.state, '', `#/notes?project=${encodeURIComponent(p)}`)
  }
  return [valid ? chosen : '', choose]
}
