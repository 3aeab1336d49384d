import { createSignal, onCleanup, onMount, Show, type JSX } from 'solid-js'
import { callback } from '../../worker-client'
import type { TerminalApi } from './shell-session'

/**
 * One of the user's terminals: xterm (imported on first open, never with the page) over a shell in the worker.
 * Focus moves into it once it is ready; Esc or Ctrl+Shift+` hands focus back to its tab.
 */
export function ShellTerminal(props: { api: TerminalApi; projectID: string; name: string; onLeave: () => void }): JSX.Element {
  const [state, setState] = createSignal<'loading' | 'ready' | { failed: string }>('loading')
  let host!: HTMLDivElement
  let disposed = false
  let teardown = () => {}
  onCleanup(() => {
    disposed = true
    teardown()
  })
  onMount(async () => {
    try {
      // The line editor and session come with xterm: nothing of the terminal weighs on the first paint.
      const [{ openScreen }, { ShellSession }] = await Promise.all([import('./xterm-view'), import('./shell-session')])
      if (disposed) return
      const screen = openScreen(host, { onLeave: () => props.onLeave() })
      const session = new ShellSession({ api: props.api, projectID: props.projectID, screen, wrap: callback })
      teardown = () => {
        session.close()
        screen.dispose()
      }
      await session.open()
      if (disposed) return
      setState('ready')
      screen.focus()
    } catch (error) {
      if (!disposed) setState({ failed: error instanceof Error ? error.message : String(error) })
    }
  })
  const hint = `${props.name.replace(/\s+/g, '-').toLowerCase()}-hint`
  return (
    <div class="shell-terminal">
      <Show when={state() === 'loading'}>
        <p class="workspace-note quiet">Starting the terminal…</p>
      </Show>
      <Show when={typeof state() === 'object' && (state() as { failed: string }).failed}>
        {(message) => <p class="workspace-note problem">The terminal could not start: {message()}</p>}
      </Show>
      <div ref={host} class="shell-terminal-screen" role="group" aria-label={props.name} aria-describedby={hint} />
      <p id={hint} class="shell-terminal-hint faint">
        Esc or Ctrl+Shift+` leaves the terminal · Ctrl+C stops · Ctrl+L clears · ↑ ↓ history
      </p>
    </div>
  )
}
