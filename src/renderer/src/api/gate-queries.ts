/**
 * react-query bindings of the gate health methods: the last report (`gates.list`, refetched when
 * the server pushes `gates.changed`, and every few seconds while a check runs: a check that
 * changes nothing pushes nothing) and a check now (`gates.check`).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { MethodOutput } from '../../../shared/api'
import { useAfterFirstPaint } from '../lib/first-paint'
import { client } from './client'
import { queryKey } from './queries'

/** How often the report is read again while the server says a check is running. */
const WHILE_CHECKING_MS = 2_000

/** Every installed gate's health, as last checked (after the first paint: the Overview's cards come first). */
export function useGates() {
  const painted = useAfterFirstPaint()
  return useQuery<MethodOutput<'gates.list'>, Error>({
    queryKey: queryKey('gates.list', {}),
    queryFn: () => client.call('gates.list', {}),
    enabled: painted,
    refetchInterval: (q) => (q.state.data?.checking ? WHILE_CHECKING_MS : false)
  })
}

/** Checks every gate now; the report replaces the cached one. */
export function useCheckGates() {
  const qc = useQueryClient()
  return useMutation<MethodOutput<'gates.check'>, Error>({
    mutationFn: () => client.call('gates.check', {}),
    onSuccess: (report) => qc.setQueryData(queryKey('gates.list', {}), report)
  })
}
