/**
 * The sandboxed preload: exposes exactly the contract's calls as `window.api` — one function
 * per call, no generic invoke — plus the event subscription. It bundles only the zod-free
 * method list, so the built file requires nothing but `electron`.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import { API_METHODS, IPC_EVENT_CHANNEL, ipcChannel } from '../shared/api-methods'

const api: Record<string, unknown> = {}
for (const method of API_METHODS) {
  const channel = ipcChannel(method)
  api[method] = (args: unknown) => ipcRenderer.invoke(channel, args)
}
api.onEvent = (listener: (event: unknown) => void) => {
  const handler = (_e: IpcRendererEvent, event: unknown) => listener(event)
  ipcRenderer.on(IPC_EVENT_CHANNEL, handler)
  return () => {
    ipcRenderer.removeListener(IPC_EVENT_CHANNEL, handler)
  }
}

contextBridge.exposeInMainWorld('api', Object.freeze(api))
