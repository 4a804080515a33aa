/**
 * react-query bindings of connecting agents: the harnesses on this machine (`connect.list`,
 * refetched when gate health changes), install and removal of a harness's gate and session hooks,
 * and a test request into the inbox.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { MethodInput, MethodOutput } from '../../../shared/api'
import { client } from './client'
import { invalidateApprovals } from './approval-queries'
import { queryKey } from './queries'

/** Every harness Muster knows, with its gate, session hooks and gate health. */
export function useConnections() {
  return useQuery<MethodOutput<'connect.list'>, Error>({
    queryKey: queryKey('connect.list', {}),
    queryFn: () => client.call('connect.list', {}),
    // a harness installed or a hub made elsewhere meanwhile (the demo fleet, a terminal): looked for again on each visit
    refetchOnMount: 'always'
  })
}

/** Installs (`connect.install`) or removes (`connect.remove`) a harness's gate and session hooks. */
export function useConnectEdit<M extends 'connect.install' | 'connect.remove'>(method: M) {
  const qc = useQueryClient()
  return useMutation<MethodOutput<M>, Error, MethodInput<M>>({
    mutationFn: (input) => client.call(method, input),
    onSettled: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: ['connect.list'] }),
        qc.invalidateQueries({ queryKey: ['gates.list'] }),
        qc.invalidateQueries({ queryKey: ['needs.list'] })
      ])
  })
}

/** Sends a test request from a harness's agent into the inbox. */
export function useConnectTest() {
  const qc = useQueryClient()
  return useMutation<MethodOutput<'connect.test'>, Error, MethodInput<'connect.test'>>({
    mutationFn: (input) => client.call('connect.test', input),
    onSettled: () => invalidateApprovals(qc)
  })
}

/** Checks every gate now, then reads the harnesses again. */
export function useConnectCheck() {
  const qc = useQueryClient()
  return useMutation<MethodOutput<'gates.check'>, Error>({
    mutationFn: () => client.call('gates.check', {}),
    onSuccess: (report) => {
      qc.setQueryData(queryKey('gates.list', {}), report)
      return qc.invalidateQueries({ queryKey: ['connect.list'] })
    }
  })
}
