/**
 * react-query bindings for the contract: one query key per method + input, so pushed events
 * can invalidate exactly what they affect.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query'
import type { MethodInput, MethodName, MethodOutput } from '../../../shared/api'
import { useAfterFirstPaint } from '../lib/first-paint'
import { client } from './client'

/** The query key of a method call: `[method, input]`. */
export function queryKey<M extends MethodName>(method: M, input?: MethodInput<M>): readonly unknown[] {
  return input === undefined ? [method] : [method, input]
}

/** Fetches one method's output with react-query; `afterFirstPaint`: not before the first screen painted (lib/first-paint.ts). */
export function useMethodQuery<M extends MethodName>(method: M, input: MethodInput<M>, opts: { afterFirstPaint?: boolean } = {}) {
  const painted = useAfterFirstPaint()
  return useQuery<MethodOutput<M>, Error>({
    queryKey: queryKey(method, input),
    queryFn: () => client.call(method, input),
    enabled: !opts.afterFirstPaint || painted
  })
}

/** App version, home folder, transport, project count. */
export const useAppInfo = () => useMethodQuery('app.info', {})
/** Every registered project with its parsed role files. */
export const useFleetStatus = () => useMethodQuery('fleet.status', {})
/** Registered projects (without role data). */
export const useProjects = () => useMethodQuery('projects.list', {})
/** The operator's settings. */
export const useSettings = () => useMethodQuery('settings.get', {})

/** Invalidates everything that depends on the set of registered projects. */
export function invalidateProjects(qc: QueryClient): Promise<void> {
  return Promise.all([
    qc.invalidateQueries({ queryKey: ['projects.list'] }),
    qc.invalidateQueries({ queryKey: ['fleet.status'] }),
    qc.invalidateQueries({ queryKey: ['app.info'] }),
    invalidateMuse(qc)
  ]).then(() => undefined)
}

/** A mutation for a method that changes the project set. */
function useProjectMutation<M extends MethodName>(method: M) {
  const qc = useQueryClient()
  return useMutation<MethodOutput<M>, Error, MethodInput<M>>({
    mutationFn: (input) => client.call(method, input),
    onSuccess: () => invalidateProjects(qc)
  })
}

/** Registers a project folder. */
export const useAddProject = () => useProjectMutation('projects.add')
/** Unregisters a project (its files are left alone). */
export const useRemoveProject = () => useProjectMutation('projects.remove')
/** Changes a project's key (the PROJECT of PROJECT/ROLE targets). */
export const useSetProjectKey = () => useProjectMutation('projects.setKey')
/** Marks (or with `project: null` forgets) the MUSE hub project. */
export const useSetMuseHub = () => useProjectMutation('muse.setHub')
/** Registers every `.muse/` project found under a folder. */
export const useScanFolder = () => useProjectMutation('projects.scan')
/** Creates and registers the demo fleet. */
export const useCreateDemo = () => useProjectMutation('demo.create')

/** Saves settings and puts the answer straight into the cache. */
export function useUpdateSettings() {
  const qc = useQueryClient()
  return useMutation<MethodOutput<'settings.update'>, Error, MethodInput<'settings.update'>>({
    mutationFn: (input) => client.call('settings.update', input),
    onSuccess: (settings) => qc.setQueryData(queryKey('settings.get', {}), settings)
  })
}

/** Query keys of the MUSE reads: refetched when role files or memory change on disk. */
const MUSE_READS = [
  'muse.directives',
  'muse.role',
  'muse.roles',
  'muse.memorySearch',
  'muse.lint',
  'muse.hub',
  'muse.kept',
  'invoke.findings'
] as const

/** Invalidates every MUSE read (directives, role files, memory search, lint). */
export function invalidateMuse(qc: QueryClient): Promise<void> {
  return Promise.all(MUSE_READS.map((m) => qc.invalidateQueries({ queryKey: [m] }))).then(() => undefined)
}

/** Every directive across projects (filters are applied in the UI so counts stay complete). */
export const useDirectives = () => useMethodQuery('muse.directives', {}, { afterFirstPaint: true })
/** One role file read in full: text, sections, TODOs, directives. */
export const useRole = (project: string, role: string) => useMethodQuery('muse.role', { project, role })
/** Lint findings of one project (or all). */
export const useLint = (project?: string) => useMethodQuery('muse.lint', project ? { project } : {}, { afterFirstPaint: true })
/** Which project holds the global strategy.md (bare ROLE targets resolve there). */
export const useHubInfo = () => useMethodQuery('muse.hub', {})

/** Ranked memory search; idle while the query is empty, keeps the last hits on screen while typing. */
export function useMemorySearch(input: MethodInput<'muse.memorySearch'>) {
  return useQuery<MethodOutput<'muse.memorySearch'>, Error>({
    queryKey: queryKey('muse.memorySearch', input),
    queryFn: () => client.call('muse.memorySearch', input),
    enabled: input.query.trim().length > 0,
    placeholderData: keepPreviousData
  })
}

/** A mutation on MUSE files; the changed files come back through `muse.written` too, but refetch at once. */
function useMuseMutation<M extends MethodName>(method: M) {
  const qc = useQueryClient()
  return useMutation<MethodOutput<M>, Error, MethodInput<M>>({
    mutationFn: (input) => client.call(method, input),
    onSuccess: () => Promise.all([invalidateMuse(qc), qc.invalidateQueries({ queryKey: ['fleet.status'] })]).then(() => undefined)
  })
}

/** Picks up a pending directive (writes the receipt and marks the source ✅). */
export const usePickup = () => useMuseMutation('muse.pickup')
/** Sends a directive from the sender's own role file. */
export const useSendDirective = () => useMuseMutation('muse.send')
/** Sends kept aside beside a project's role files (merged back with one click). */
export const useKept = (project: string) => useMethodQuery('muse.kept', { project })
/** Merges a kept send back into its role file. */
export const useKeptMerge = () => useMuseMutation('muse.keptMerge')
/** Deletes a kept send without merging it. */
export const useKeptDiscard = () => useMuseMutation('muse.keptDiscard')
/** Appends to today's memory log of a project. */
export const useMemoryWrite = () => useMuseMutation('muse.memoryWrite')

/** A project's squad git notes with findings (idle without a project). */
export function useNotes(project: string) {
  return useQuery<MethodOutput<'notes.list'>, Error>({
    queryKey: queryKey('notes.list', { project }),
    queryFn: () => client.call('notes.list', { project }),
    enabled: project !== ''
  })
}

/** Promotes (or with `dryRun` plans) a project's flagged notes; refetches its notes after a write. */
export function usePromoteNotes() {
  const qc = useQueryClient()
  return useMutation<MethodOutput<'notes.promote'>, Error, MethodInput<'notes.promote'>>({
    mutationFn: (input) => client.call('notes.promote', input),
    onSuccess: (r) => (r.dryRun ? undefined : qc.invalidateQueries({ queryKey: ['notes.list'] }))
  })
}

/** Invocation-protocol findings in role files and hub event bodies (one project or all). */
export const useChainFindings = (project?: string) => useMethodQuery('invoke.findings', project ? { project } : {})

/** Checks one invocation against the four hard rules (run on demand, like a form submit). */
export function useChainCheck() {
  return useMutation<MethodOutput<'invoke.check'>, Error, MethodInput<'invoke.check'>>({
    mutationFn: (input) => client.call('invoke.check', input)
  })
}
