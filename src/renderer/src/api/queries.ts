import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { Settings } from '@shared/api'
import { useApi } from './context'
import { callKey } from './call-keys'

export function useAppInfo() {
  const api = useApi()
  return useQuery({ queryKey: callKey('app.info'), queryFn: () => api['app.info']({}) })
}

export function useCounts() {
  const api = useApi()
  return useQuery({ queryKey: callKey('app.counts'), queryFn: () => api['app.counts']({}) })
}

export function useSettings() {
  const api = useApi()
  return useQuery({ queryKey: callKey('settings.get'), queryFn: () => api['settings.get']({}) })
}

export function useUpdateSettings() {
  const api = useApi()
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (patch: Partial<Settings>) => api['settings.update']({ patch }),
    onSuccess: (settings) => qc.setQueryData(callKey('settings.get'), settings)
  })
}
