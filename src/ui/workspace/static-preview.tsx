import { createSignal, createUniqueId, For, onCleanup, Show, type JSX } from 'solid-js'
import type { WorkspaceInfo } from '../../core/protocol'
import type { InertReport, PreviewScripts } from '../../workspace/preview/build-preview'
import type { DevServerNeed } from '../../workspace/preview/dev-server'
import { NAVIGATE_MESSAGE } from '../../workspace/preview/references'
import { ENTRY_PAGE, type StaticPreview, type StaticPreviewState } from './create-static-preview'

/**
 * What the sandbox lets the page do, never sharing the app's origin or storage. Running, its scripts, forms and
 * dialogs; inert, only the preview's own link handling runs (the page's policy allows no other script).
 */
export const PREVIEW_SANDBOX: Record<PreviewScripts, string> = { run: 'allow-scripts allow-forms allow-modals', inert: 'allow-scripts' }

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
            <Show when={ready().scripts === 'inert' && (ready().changed || ready().inert.scripts > 0 || ready().inert.links > 0)}>
              <InertNote inert={ready().inert} changed={ready().changed} onRun={() => props.preview.setScripts('run')} />
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
              <Show when={ready().scripts === 'run'}>
                <button type="button" class="button button-small button-quiet" onClick={() => props.preview.setScripts('inert')}>
                  Stop the page’s scripts
                </button>
              </Show>
            </div>
            {/* A new frame per reload and per sandbox: the same srcdoc set again would not run the page again, and a
                frame's sandbox applies from its next navigation. */}
            <Show when={`${reloads()}:${ready().scripts}`} keyed>
              <iframe
                ref={frame}
                class="preview-frame"
                title={`Static preview of ${ready().page.slice(1)}`}
                sandbox={PREVIEW_SANDBOX[ready().scripts]}
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

/** Says what the inert page left out, and offers to run it: the user's grant, for this version of the page. */
function InertNote(props: { inert: InertReport; changed: boolean; onRun: () => void }): JSX.Element {
  const id = createUniqueId()
  const links = () => {
    const count = props.inert.links
    if (count === 0) return ''
    return count === 1 ? '1 link to another host is shown but not followed. ' : `${count} links to other hosts are shown but not followed. `
  }
  return (
    <div class="workspace-note preview-inert-note">
      <p id={id}>
        {props.changed ? 'The page changed since you ran it, and this version has not run. ' : props.inert.scripts > 0 ? 'The page’s scripts have not run. ' : ''}
        {links()}A page the agent wrote can send what it was told to another host once it runs, so run it only if you trust it.
      </p>
      <button type="button" class="button button-small" aria-describedby={id} onClick={() => props.onRun()}>
        Run the page’s scripts
      </button>
    </div>
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
