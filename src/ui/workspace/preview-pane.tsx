import { createMemo, createSignal, For, Show, type JSX } from 'solid-js'
import type { WorkspaceInfo } from '../../core/protocol'
import type { PreviewServer } from '../../workspace/webcontainer/preview'
import { createStaticPreview } from './create-static-preview'
import type { WorkspaceChanges } from './create-workspace-changes'
import { StaticPreviewView } from './static-preview'
import type { WorkspaceApi } from './workspace-api'

export type { PreviewServer }

/** Where the static preview reads the project's page from. */
export interface StaticPreviewSource {
  api: Pick<WorkspaceApi, 'readPreviewFile'>
  projectID: string
  root: string
  changes: WorkspaceChanges
}

// Only web pages go into the frame or the link: a `javascript:` or `data:` URL from anywhere must not run here.
const isWebUrl = (url: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(url).protocol)
  } catch {
    return false
  }
}

const STATIC = 'static'

/**
 * The app a command serves, in a frame, with a port picker when several are up and a way out to a real tab; and,
 * given the project, its own index.html as a static page beside them (the only preview without WebContainer).
 */
export function PreviewPane(props: {
  servers: PreviewServer[]
  project?: StaticPreviewSource | undefined
  info?: WorkspaceInfo | undefined
  /** Whether the pane is on screen: the static preview rebuilds only then. */
  active?: boolean
  onStartWebContainer?: (() => void) | undefined
}): JSX.Element {
  const servers = createMemo(() => props.servers.filter((server) => isWebUrl(server.url)))
  const [choice, setChoice] = createSignal<number | typeof STATIC>()
  // The choice while it is available; otherwise the newest server, else the static page.
  const selected = createMemo(() => {
    const picked = choice()
    if (picked === STATIC && props.project) return STATIC
    return servers().find((server) => server.port === picked) ?? servers()[servers().length - 1] ?? (props.project ? STATIC : undefined)
  })
  const server = createMemo(() => {
    const current = selected()
    return current === STATIC ? undefined : current
  })
  const [reloads, setReloads] = createSignal(0)
  const picker = (current: string) => (
    <label>
      <span class="visually-hidden">{props.project ? 'Show' : 'Port'}</span>
      <select
        class="text-input preview-select"
        value={current}
        onChange={(event) => setChoice(event.currentTarget.value === STATIC ? STATIC : Number(event.currentTarget.value))}
      >
        <Show when={props.project}>
          <option value={STATIC}>Static preview of index.html</option>
        </Show>
        <For each={servers()}>{(candidate) => <option value={String(candidate.port)}>Port {candidate.port}</option>}</For>
      </select>
    </label>
  )
  const choices = () => servers().length + (props.project ? 1 : 0)
  return (
    <div class="preview-pane">
      <Show when={choices() > 1 && selected() === STATIC}>
        <div class="preview-toolbar">{picker(STATIC)}</div>
      </Show>
      {/* Keyed: another project (or root) is another preview. */}
      <Show when={props.project} keyed>
        {(project) => {
          const preview = createStaticPreview({
            api: project.api,
            projectID: project.projectID,
            root: project.root,
            changes: project.changes,
            active: () => (props.active ?? true) && selected() === STATIC,
          })
          return (
            <Show when={selected() === STATIC}>
              <StaticPreviewView preview={preview} info={props.info} onStartWebContainer={props.onStartWebContainer} />
            </Show>
          )
        }}
      </Show>
      <Show
        when={server()}
        fallback={
          <Show when={!props.project}>
            <p class="workspace-note quiet">Nothing to preview yet. When a command starts a server, it shows up here.</p>
          </Show>
        }
      >
        {(server) => (
          <>
            <div class="preview-toolbar">
              <Show when={choices() > 1} fallback={<span class="mono preview-port">Port {server().port}</span>}>
                {picker(String(server().port))}
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
