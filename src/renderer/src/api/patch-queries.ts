/**
 * react-query bindings for the patch methods: the inbox, one patch, the preflight of an apply, a
 * run's state and its live test output. Writes (apply, cancel, revert) refetch what they change.
 */
import { useEffect, useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { ApplyRun, MethodInput, MethodOutput } from '../../../shared/api'
import { client } from './client'
import { hubSel } from './hub-queries'
import { queryKey, useMethodQuery } from './queries'
import { newerRun } from './run-order'

/** The patch inbox of a hub (null = MemPalace's default). */
export const usePatches = (hub: string | null) => useMethodQuery('patch.list', { ...hubSel(hub), limit: 500 })

/** One patch with its verification, content, audit and runs. */
export function usePatch(hub: string | null, id: string | null) {
  const input = { ...hubSel(hub), id: id ?? '' }
  return useQuery<MethodOutput<'patch.get'>, Error>({
    queryKey: queryKey('patch.get', input),
    queryFn: () => client.call('patch.get', input),
    enabled: !!id
  })
}

/** The preconditions of applying `id` to `project` (the matching one when empty). */
export function usePreflight(hub: string | null, id: string | null, project: string, allowDirty: boolean) {
  const input = { ...hubSel(hub), id: id ?? '', ...(project ? { project } : {}), allow_dirty: allowDirty }
  return useQuery<MethodOutput<'patch.preflight'>, Error>({
    queryKey: queryKey('patch.preflight', input),
    queryFn: () => client.call('patch.preflight', input),
    enabled: !!id
  })
}

/** A run as it stands; kept current by `patch.run` pushes (see use-live-events). */
export function useApplyRun(id: string | null) {
  return useQuery<ApplyRun, Error>({
    queryKey: queryKey('patch.run', { id: id ?? '' }),
    queryFn: () => client.call('patch.run', { id: id ?? '' }),
    enabled: !!id
  })
}

/** The test output of a run as it is printed, starting from its stored tail. */
export function usePatchOutput(run: ApplyRun | undefined): string {
  const [live, setLive] = useState<{ id: string; text: string } | null>(null)
  const id = run?.id ?? null
  useEffect(() => {
    if (!id) return
    return client.subscribe((e) => {
      if (e.name === 'patch.output' && e.payload.id === id) setLive((l) => ({ id, text: (l?.id === id ? l.text : '') + e.payload.text }))
    })
  }, [id])
  const tail = run?.test?.tail ?? ''
  const text = live?.id === id ? live.text : ''
  // The stored tail covers output printed before this window subscribed; live text is newer.
  return text.length >= tail.length ? text : tail
}

function usePatchWrite<M extends 'patch.apply' | 'patch.cancel' | 'patch.revert' | 'patch.verify' | 'patch.commit'>(method: M) {
  const qc = useQueryClient()
  return useMutation<MethodOutput<M>, Error, MethodInput<M>>({
    mutationFn: (input) => client.call(method, input),
    onSuccess: (out) => {
      const run = (out as { run?: ApplyRun }).run ?? (method === 'patch.verify' ? null : (out as ApplyRun))
      if (run) qc.setQueryData<ApplyRun>(queryKey('patch.run', { id: run.id }), (old) => newerRun(old, run))
      for (const m of ['patch.list', 'patch.get', 'patch.preflight', 'hub.list', 'hub.thread']) void qc.invalidateQueries({ queryKey: [m] })
    }
  })
}

/** A project's working-tree diff against HEAD (what a submit from the worktree sends). */
export function useWorktreeDiff(project: string) {
  return useQuery<MethodOutput<'patch.worktreeDiff'>, Error>({
    queryKey: queryKey('patch.worktreeDiff', { project }),
    queryFn: () => client.call('patch.worktreeDiff', { project }),
    enabled: !!project
  })
}

/** Sends a patch to an agent (stored byte-exactly); the inbox and the timeline change. */
export function useSubmitPatch() {
  const qc = useQueryClient()
  return useMutation<MethodOutput<'patch.submit'>, Error, MethodInput<'patch.submit'>>({
    mutationFn: (input) => client.call('patch.submit', input),
    onSuccess: () => {
      for (const m of ['patch.list', 'hub.list', 'hub.overview']) void qc.invalidateQueries({ queryKey: [m] })
    }
  })
}

/** Starts an apply (check, apply, tests, ack). */
export const useApplyPatch = () => usePatchWrite('patch.apply')
/** Saves a project's test command (audited): the only command an apply runs. */
export function useSetPatchSettings() {
  const qc = useQueryClient()
  return useMutation<MethodOutput<'patch.setSettings'>, Error, MethodInput<'patch.setSettings'>>({
    mutationFn: (input) => client.call('patch.setSettings', input),
    onSuccess: () => {
      for (const m of ['patch.settings', 'patch.preflight']) void qc.invalidateQueries({ queryKey: [m] })
    }
  })
}
/** Stops a run's test command. */
export const useCancelRun = () => usePatchWrite('patch.cancel')
/** Puts the worktree back as it was before a failed run. */
export const useRevertRun = () => usePatchWrite('patch.revert')
/** Commits what an applied run changed. */
export const useCommitRun = () => usePatchWrite('patch.commit')
/** Verifies again (and records it in the audit). */
export const useVerifyPatch = () => usePatchWrite('patch.verify')
