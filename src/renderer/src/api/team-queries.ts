/** Team mode: the team settings, and the disagreements awaiting adjudication. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { TeamSettings } from '@shared/api'
import { useApi } from './context'
import { callKey } from './call-keys'

export function useTeamSettings() {
  const api = useApi()
  return useQuery({ queryKey: callKey('team.getSettings'), queryFn: () => api['team.getSettings']({}) })
}

/** Saving puts the settings the call returns straight into the cache (no refetch). */
export function useUpdateTeamSettings() {
  const api = useApi()
  const qc = useQueryClient()
  const save = (patch: Partial<TeamSettings>) => api['team.updateSettings']({ patch })
  return useMutation({ mutationFn: save, onSuccess: (s: TeamSettings) => qc.setQueryData(callKey('team.getSettings'), s) })
}

export const ADJUDICATION_PAGE = 50

export function useAdjudicationList(page: number) {
  const api = useApi()
  return useQuery({
    queryKey: callKey('adjudicate.list', page),
    queryFn: () => api['adjudicate.list']({ offset: page * ADJUDICATION_PAGE, limit: ADJUDICATION_PAGE }),
    placeholderData: keepPreviousData
  })
}
