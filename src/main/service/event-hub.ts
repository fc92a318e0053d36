import type { ApiEvent } from '../../shared/events'

export type Listener = (event: ApiEvent) => void

/** Fan-out of main-side events to every shell that listens (IPC windows, SSE streams). */
export class EventHub {
  private readonly listeners = new Set<Listener>()

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  emit(event: ApiEvent): void {
    for (const l of this.listeners) {
      try {
        l(event)
      } catch (error) {
        console.error('[arbiter] event listener failed:', error)
      }
    }
  }
}
