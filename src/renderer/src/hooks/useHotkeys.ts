import { useEffect, useRef } from 'react'

export type HotkeyMap = Record<string, (e: KeyboardEvent) => void>

/** True while the user types in a field: shortcuts must never steal those keys. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  if (target.isContentEditable) return true
  const tag = target.tagName
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true
  if (tag !== 'INPUT') return false
  const type = (target as HTMLInputElement).type
  return !['button', 'checkbox', 'radio', 'submit', 'reset', 'range', 'color', 'file'].includes(type)
}

/** The key name a map uses: `ctrl+z`, `shift+?`, `Enter`, `j`… (Meta counts as Ctrl on macOS). */
export function keyName(e: KeyboardEvent): string {
  const mods = `${e.ctrlKey || e.metaKey ? 'ctrl+' : ''}${e.altKey ? 'alt+' : ''}`
  return `${mods}${e.key.length === 1 ? e.key.toLowerCase() : e.key}`
}

/**
 * Window-level shortcuts while `enabled`, and only while `armed()` says so (a task screen's key
 * guard: keys before it are dropped). Handlers are read through a ref so callers can pass a fresh
 * map each render without re-binding the listener.
 */
export function useHotkeys(map: HotkeyMap, enabled = true, armed: () => boolean = always): void {
  const ref = useRef(map)
  ref.current = map
  const armedRef = useRef(armed)
  armedRef.current = armed
  useEffect(() => {
    if (!enabled) return
    const on = (e: KeyboardEvent) => {
      if (isTypingTarget(e.target) || e.isComposing || !armedRef.current()) return
      const handler = ref.current[keyName(e)] ?? (e.key === '?' ? ref.current['?'] : undefined)
      if (!handler) return
      e.preventDefault()
      handler(e)
    }
    window.addEventListener('keydown', on)
    return () => window.removeEventListener('keydown', on)
  }, [enabled])
}

const always = () => true
