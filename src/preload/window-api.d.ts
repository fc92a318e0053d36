import type { BridgeApi } from '../shared/api'

declare global {
  interface Window {
    /** Set by the preload bridge in Electron; absent in the browser console. */
    api?: BridgeApi
  }
}

export {}
