import { createSignal, For, onCleanup, Show, type JSX } from 'solid-js'
import type { WorkspaceInfo } from '../../core/protocol'
import type { DevServerNeed } from '../../workspace/preview/dev-server'
import { NAVIGATE_MESSAGE } from '../../workspace/preview/references'
import { ENTRY_PAGE, type StaticPreview, type StaticPreviewState } from './create-static-preview'

/** What the sandbox lets the page do: run its scripts, forms and dialogs; never share the app's origin or storage. */
export const PREVIEW_SANDBOX = 'allow-scripts allow-forms allow-modals'

/** The project's own page in a sandboxed frame, with what could not be carried over and whether it wants a server. */
export function StaticPreviewView(props: {
  preview: StaticPreview
  info: WorkspaceInfo | undefined
  onStartWebContainer: (() => void) | undefined
}): JSX.Element {
  let frame: HTMLIFrameElement | undefined
  const [reloads, setReloads] = createSignal(0)
  const onMessage = (event: MessageEvent) => {
    // Only the frame on show speaks for the page; it has an opaque origin, so its source is what identifies it.
    if (!frame || event.source !== frame.contentWindow) return
    const data: unknown = event.data
    if (typeof data !== 'object' || data === null || !('type' in data) || data.type !== NAVIGATE_MESSAGE || !('href' in data)) return
    if (typeof data.href === 'string') props.preview.navigate(data.href)
  }
  window.addEventListener('message', onMessage)
  onCleanup(() => window.removeEventListener('message', onMessage))

  const state = () => props.preview.state()
  const inState = <S extends StaticPreviewState['status']>(status: S) => {
    const current = state()
    return current.status === status ? (current as Extract<StaticPreviewState, { status: S }>) : undefined
  }
  const need = () => {
    const current = state()
    return current.status === 'ready' || current.status === 'missing' ? current.need : undefined
  }
  return (
    <>
      <Show when={need()}>{(which) => <DevServerNote need={which()} info={props.info} onStart={props.onStartWebContainer} />}</Show>
      <Show when={state().status === 'loading'}>
        <p class="workspace-note quiet">Reading the project's page…</p>
      </Show>
      <Show when={inState('error')}>{(failed) => <p class="workspace-note problem">Couldn't build the preview: {failed().message}</p>}</Show>
      <Show when={inState('missing')}>
        <p class="workspace-note quiet">
          {props.preview.page() === ENTRY_PAGE
            ? 'No index.html at the project’s root: a static web app (an index.html with its CSS and JavaScript) shows here.'
            : `${props.preview.page().slice(1)} is not in the project.`}
        </p>
      </Show>
      <Show when={inState('ready')}>
        {(ready) => (
          <>
            <Show when={ready().problems.length > 0}>
              <details class="preview-problems">
                <summary>
                  {ready().problems.length === 1 ? '1 thing' : `${ready().problems.length} things`} the static preview could not load
                </summary>
                <ul>
                  <For each={ready().problems}>
                    {(problem) => (
                      <li>
                        <span class="mono">{problem.file.slice(1)}</span>: {problem.message}
                      </li>
                    )}
                  </For>
                </ul>
              </details>
            </Show>
            <div class="preview-toolbar">
              <span class="mono preview-port">{ready().page.slice(1)}</span>
              <Show when={ready().page !== ENTRY_PAGE}>
                <button type="button" class="button button-small button-quiet" onClick={() => props.preview.navigate('/')}>
                  Back to index.html
                </button>
              </Show>
              <button
                type="button"
                class="button button-small button-quiet"
                onClick={() => {
                  setReloads(reloads() + 1)
                  props.preview.reload()
                }}
              >
                Reload preview
              </button>
            </div>
            {/* A new frame per reload: the same srcdoc set again would not run the page again. */}
            <Show when={`${reloads()}`} keyed>
              <iframe
                ref={frame}
                class="preview-frame"
                title={`Static preview of ${ready().page.slice(1)}`}
                sandbox={PREVIEW_SANDBOX}
                referrerpolicy="no-referrer"
                srcdoc={ready().html}
              />
            </Show>
          </>
        )}
      </Show>
    </>
  )
}

function DevServerNote(props: { need: DevServerNeed; info: WorkspaceInfo | undefined; onStart: (() => void) | undefined }): JSX.Element {
  const command = () => (props.need.type === 'script' ? props.need.command : 'npm run dev')
  const running = () => props.info?.backend === 'webcontainer'
  return (
    <div class="workspace-note preview-server-note" role="note">
      <p>
        {props.need.type === 'packages' ? `It imports npm packages (${props.need.names.join(', ')}). ` : ''}
        This project needs a dev server ({command()}):{' '}
        {running() ? `ask the agent to run ${command()} in WebContainer; its server shows up here.` : 'start WebContainer.'}
      </p>
      <Show when={!running() && props.onStart}>
        {(start) => (
          <button type="button" class="button button-small" onClick={() => start()()}>
            Start WebContainer
          </button>
        )}
      </Show>
      <Show when={!running() && props.info?.reason}>{(reason) => <p class="quiet">{reason()}</p>}</Show>
    </div>
  )
}
