import { createMemo, createSignal, For, Show, type JSX } from 'solid-js'
import type { PreviewServer } from '../../workspace/webcontainer/preview'

export type { PreviewServer }

// Only web pages go into the frame or the link: a `javascript:` or `data:` URL from anywhere must not run here.
const isWebUrl = (url: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(url).protocol)
  } catch {
    return false
  }
}

/** The app a command serves, in a frame, with a port picker when several are up and a way out to a real tab. */
export function PreviewPane(props: { servers: PreviewServer[] }): JSX.Element {
  const servers = createMemo(() => props.servers.filter((server) => isWebUrl(server.url)))
  const [port, setPort] = createSignal<number>()
  // The chosen port while it is up; otherwise the newest server.
  const selected = createMemo(() => servers().find((server) => server.port === port()) ?? servers()[servers().length - 1])
  const [reloads, setReloads] = createSignal(0)
  return (
    <div class="preview-pane">
      <Show
        when={selected()}
        fallback={<p class="workspace-note quiet">Nothing to preview yet. When a command starts a server, it shows up here.</p>}
      >
        {(server) => (
          <>
            <div class="preview-toolbar">
              <Show when={servers().length > 1} fallback={<span class="mono preview-port">Port {server().port}</span>}>
                <label>
                  <span class="visually-hidden">Port</span>
                  <select class="text-input preview-select" value={String(server().port)} onChange={(event) => setPort(Number(event.currentTarget.value))}>
                    <For each={servers()}>{(candidate) => <option value={String(candidate.port)}>Port {candidate.port}</option>}</For>
                  </select>
                </label>
              </Show>
              <button type="button" class="button button-small button-quiet" onClick={() => setReloads(reloads() + 1)}>
                Reload preview
              </button>
              <a class="button button-small button-quiet" href={server().url} target="_blank" rel="noopener noreferrer">
                Open in new tab
              </a>
            </div>
            {/* A cross-origin frame cannot be told to reload; a new frame for each reload (or URL) does it. */}
            <Show when={`${server().url}#${reloads()}`} keyed>
              <iframe class="preview-frame" title={`Preview of port ${server().port}`} src={server().url} />
            </Show>
          </>
        )}
      </Show>
    </div>
  )
}
