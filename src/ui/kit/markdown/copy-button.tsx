import { createSignal, onCleanup, type JSX } from 'solid-js'

/** How long the button says "Copied" before it offers to copy again. */
const CONFIRM_MS = 1_500

/** Writes text to the clipboard; false when the browser refuses (no permission, not a secure context). */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text)
    return true
  } catch {
    return false
  }
}

/** A button that copies `text()` and says "Copied" (or "Copy failed") for a moment; a live region announces it. */
export function CopyButton(props: { label: string; text: () => string; class?: string }): JSX.Element {
  const [said, setSaid] = createSignal<string>()
  let timer: ReturnType<typeof setTimeout> | undefined
  onCleanup(() => clearTimeout(timer))
  const copy = async () => {
    const copied = await copyText(props.text())
    setSaid(copied ? 'Copied' : 'Copy failed')
    clearTimeout(timer)
    timer = setTimeout(() => setSaid(undefined), CONFIRM_MS)
  }
  return (
    <button type="button" class={`copy-button ${props.class ?? ''}`} aria-live="polite" onClick={() => void copy()}>
      {said() ?? props.label}
    </button>
  )
}
