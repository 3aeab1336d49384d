import { createSignal, onCleanup, type Accessor } from 'solid-js'

/** How long news stays up by itself; hovering or focusing it holds it. */
export const TOAST_MS = 8_000

export interface Toast {
  id: number
  text: string
}

export interface Toasts {
  list: Accessor<readonly Toast[]>
  show(text: string): void
  dismiss(id: number): void
  /** While the user points at or focuses a toast it stays; leaving starts its time again. */
  hold(id: number, held: boolean): void
}

/**
 * News that goes away by itself ("Branched into …", "Opened a shared session"), as toasts in one corner, one line
 * each, newest last: it no longer piles up as banners beside a later error. What needs the user's action (an error,
 * a reload) stays a banner at the top until dealt with.
 */
export function createToasts(options: { timeoutMs?: number } = {}): Toasts {
  const timeout = options.timeoutMs ?? TOAST_MS
  const [list, setList] = createSignal<readonly Toast[]>([])
  const timers = new Map<number, ReturnType<typeof setTimeout>>()
  let next = 1
  const dismiss = (id: number) => {
    clearTimeout(timers.get(id))
    timers.delete(id)
    setList((toasts) => toasts.filter((toast) => toast.id !== id))
  }
  const arm = (id: number) => {
    clearTimeout(timers.get(id))
    timers.set(id, setTimeout(() => dismiss(id), timeout))
  }
  onCleanup(() => {
    for (const timer of timers.values()) clearTimeout(timer)
  })
  return {
    list,
    show(text) {
      // The same news twice (two branches in a row) is one toast, its time started again.
      const same = list().find((toast) => toast.text === text)
      if (same) return arm(same.id)
      const id = next++
      setList((toasts) => [...toasts, { id, text }])
      arm(id)
    },
    dismiss,
    hold(id, held) {
      if (held) {
        clearTimeout(timers.get(id))
        timers.delete(id)
      } else if (list().some((toast) => toast.id === id)) arm(id)
    },
  }
}
