import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { TeamSettings } from '@shared/api'
import { useApi } from './context'

/** Team mode: the team settings, and the disagreements awaiting adjudication. */
const TEAM_KEY = ['team.getSettings']

export function useTeamSettings() {
  const api = useApi()
  return useQuery({ queryKey: TEAM_KEY, queryFn: () => api['team.getSettings']({}) })
}

/** Saving puts the settings the call returns straight into the cache (no refetch). */
export function useUpdateTeamSettings() {
  const api = useApi()
  const qc = useQueryClient()
  const save = (patch: Partial<TeamSettings>) => api['team.updateSettings']({ patch })
  return useMutation({ mutationFn: save, onSuccess: (s: TeamSettings) => qc.setQueryData(TEAM_KEY, s) })
}

export const ADJUDICATION_PAGE = 50

export function useAdjudicationList(page: number) {
  const api = useApi()
  return useQuery({
    queryKey: ['adjudicate.list', page],
    queryFn: () => api['adjudicate.list']({ offset: page * ADJUDICATION_PAGE, limit: ADJUDICATION_PAGE }),
    placeholderData: keepPreviousData
  })
}
