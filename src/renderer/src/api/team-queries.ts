import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { TeamSettings } from '@shared/api'
import { useApi } from './context'

/** Team mode (issue #9): the team settings, and the disagreements awaiting adjudication. */
export function useTeamSettings() {
  const api = useApi()
  return useQuery({ queryKey: ['team.getSettings'], queryFn: () => api['team.getSettings']({}) })
}

export function useUpdateTeamSettings() {
  const api = useApi()
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (patch: Partial<TeamSettings>) => api['team.updateSettings']({ patch }),
    onSuccess: (s) => qc.setQueryData(['team.getSettings'], s)
  })
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
