import { createEffect, createMemo, createSignal, Index, Match, on, onCleanup, Show, Switch, type JSX } from 'solid-js'
import type { FileContent } from '../../core/protocol'
import { errorMessage } from '../kit/format/error'
import { CloseIcon } from '../kit/icons/icons'
import type { WorkspaceChanges } from './create-workspace-changes'
import { formatBytes, splitLines } from './file-lines'
import { displayPath, isWithin } from './tree-rows'
import type { WorkspaceApi } from './workspace-api'
import { formatNumber } from '../kit/format/number'

/** A big file shows its head first: thousands of rows at once would stall the panel for a file nobody scrolls. */
export const VIEWER_LINES = 2_000

type Shown =
  | { status: 'loading' }
  | { status: 'loaded'; content: FileContent }
  | { status: 'error'; message: string }
  | { status: 'removed' }

/**
 * One file, read-only: text with line numbers (rendered as text nodes, never as HTML), or a note for binary
 * content. Reads the file again whenever the worker reports it changed, keeping the old text on screen meanwhile.
 */
export function FileViewer(props: {
  api: WorkspaceApi
  projectID: string
  root: string
  path: string
  changes: WorkspaceChanges
  onClose?: () => void
  maxLines?: number
}): JSX.Element {
  const [shown, setShown] = createSignal<Shown>({ status: 'loading' })
  const [showAll, setShowAll] = createSignal(false)
  // Only the newest read may land: a slow answer for an older version (or another file) is dropped.
  let request = 0

  async function read(path: string): Promise<void> {
    const ticket = ++request
    try {
      const content = await props.api.readFile({ projectID: props.projectID, path })
      if (ticket === request) setShown({ status: 'loaded', content })
    } catch (error) {
      if (ticket === request) setShown({ status: 'error', message: errorMessage(error) })
    }
  }

  createEffect(
    on(
      () => props.path,
      (path) => {
        setShown({ status: 'loading' })
        setShowAll(false)
        void read(path)
      },
    ),
  )
  onCleanup(
    props.changes.subscribe((change) => {
      if (change.type === 'remove' && isWithin(props.path, change.path)) {
        request++
        setShown({ status: 'removed' })
      } else if (change.type === 'write' && change.path === props.path) {
        void read(props.path)
      }
    }),
  )

  const loaded = () => {
    const current = shown()
    return current.status === 'loaded' ? current.content : undefined
  }
  const problem = () => {
    const current = shown()
    return current.status === 'error' ? current.message : undefined
  }
  const text = () => {
    const current = shown()
    return current.status === 'loaded' && current.content.type === 'text' ? current.content : undefined
  }
  const binary = () => {
    const current = shown()
    return current.status === 'loaded' && current.content.type === 'binary' ? current.content : undefined
  }
  const lines = createMemo(() => splitLines(text()?.text ?? ''))
  const visible = createMemo(() => (showAll() ? lines() : lines().slice(0, props.maxLines ?? VIEWER_LINES)))
  const name = () => displayPath(props.path, props.root)
  const gutter = () => String(Math.max(lines().length, 1)).length

  return (
    <div class="file-viewer" data-path={props.path}>
      <header class="file-viewer-head">
        <span class="file-viewer-name mono" title={props.path}>
          {name()}
        </span>
        <Show when={loaded()}>{(content) => <span class="faint">{formatBytes(content().size)}</span>}</Show>
        <Show when={props.onClose}>
          <button type="button" class="icon-button" aria-label="Close file" title="Close file" onClick={() => props.onClose?.()}>
            <CloseIcon />
          </button>
        </Show>
      </header>
      <Switch>
        <Match when={shown().status === 'loading'}>
          <p class="workspace-note quiet">Reading {name()}…</p>
        </Match>
        <Match when={shown().status === 'removed'}>
          <p class="workspace-note quiet">This file was deleted.</p>
        </Match>
        <Match when={problem()}>
          {(message) => <p class="workspace-note problem">Couldn't read the file: {message()}</p>}
        </Match>
        <Match when={binary()}>{(file) => <p class="workspace-note quiet">Binary file, {formatBytes(file().size)}</p>}</Match>
        <Match when={text()}>
          <Show when={lines().length > 0} fallback={<p class="workspace-note quiet">Empty file</p>}>
            <div class="file-lines mono" tabindex="0" role="region" aria-label={`Contents of ${name()}`} style={{ '--gutter': `${gutter()}ch` }}>
              <Index each={visible()}>
                {(line, index) => (
                  <div class="file-line">
                    <span class="line-number" aria-hidden="true">
                      {index + 1}
                    </span>
                    <span class="line-text">{line()}</span>
                  </div>
                )}
              </Index>
            </div>
            <Show when={lines().length > visible().length}>
              <button type="button" class="button-link file-show-all" onClick={() => setShowAll(true)}>
                Show all {formatNumber(lines().length)} lines
              </button>
            </Show>
          </Show>
        </Match>
      </Switch>
    </div>
  )
}
