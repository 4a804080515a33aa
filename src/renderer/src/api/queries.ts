/**
 * react-query bindings for the contract: one query key per method + input, so pushed events
 * can invalidate exactly what they affect.
 */
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query'
import type { MethodInput, MethodName, MethodOutput } from '../../../shared/api'
import { client } from './client'

/** The query key of a method call: `[method, input]`. */
export function queryKey<M extends MethodName>(method: M, input?: MethodInput<M>): readonly unknown[] {
  return input === undefined ? [method] : [method, input]
}

/** Fetches one method's output with react-query. */
export function useMethodQuery<M extends MethodName>(method: M, input: MethodInput<M>) {
  return useQuery<MethodOutput<M>, Error>({
    queryKey: queryKey(method, input),
    queryFn: () => client.call(method, input)
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
    qc.invalidateQueries({ queryKey: ['app.info'] })
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
