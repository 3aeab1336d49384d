import { createSignal, onCleanup, type Accessor } from 'solid-js'

/** The current time, refreshed every `interval` ms while the owner lives: "5 min ago" labels age on their own. */
export function createNow(interval: number): Accessor<number> {
  const [now, setNow] = createSignal(Date.now())
  const timer = setInterval(() => setNow(Date.now()), interval)
  onCleanup(() => clearInterval(timer))
  return now
}
