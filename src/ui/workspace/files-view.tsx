import { createSignal, For, getOwner, lazy, runWithOwner, Show, Suspense, type JSX } from 'solid-js'
import { CloseIcon } from '../kit/icons/icons'
import { createFileTree } from './create-file-tree'
import type { WorkspaceChanges } from './create-workspace-changes'
import { FileTreeView, type TreeFiles } from './file-tree'
import { nextTabIndex } from './tab-keys'
import { displayPath } from './tree-rows'
import type { FileApi, WorkspaceApi } from './workspace-api'
import './editor.css'

// With CodeMirror, on the first open: first paint carries none of the editor.
const EditorFile = lazy(() => import('./editor-file').then((module) => ({ default: module.EditorFile })))

/**
 * The Files tab: the tree on top, the open files below as editor tabs. Every open file stays mounted (hidden when
 * not shown), so its undo history, cursor and unsaved edits survive switching tabs.
 */
export function FilesView(props: {
  api: WorkspaceApi
  projectID: string
  root: string
  changes: WorkspaceChanges
  sessionID?: string | undefined
}): JSX.Element {
  // The tree lives as long as this view: folds survive tab switches; another project or root mounts a new view.
  const tree = createFileTree({ api: props.api, projectID: props.projectID, root: props.root, changes: props.changes })
  const fileApi = fileApiOf(props.api)
  const [open, setOpen] = createSignal<string[]>([])
  const [active, setActive] = createSignal<string>()
  const [dirty, setDirty] = createSignal<ReadonlySet<string>>(new Set())
  // The tree's file actions load after the first paint (they are only needed once the user acts on a file).
  const [files, setFiles] = createSignal<TreeFiles>()
  const owner = getOwner()
  if (fileApi) {
    void import('./file-tree-chrome').then((chrome) =>
      runWithOwner(owner, () => {
        const actions = chrome.createFileActions({ api: fileApi, projectID: props.projectID, root: props.root, tree, sessionID: () => props.sessionID, onRelocated: relocated })
        setFiles({ actions, chrome })
      }),
    )
  }
  let treeBox!: HTMLDivElement
  let tabList!: HTMLDivElement
  const name = (path: string) => displayPath(path, props.root)

  function openFile(path: string): void {
    if (!open().includes(path)) setOpen([...open(), path])
    setActive(path)
  }

  /**
   * Open tabs follow a rename or move, and close when their file is deleted; a tab with unsaved edits stays as it
   * is, so nothing typed is lost (saving it writes the file back at its old path).
   */
  function relocated(from: string, to: string | undefined): void {
    const moved = (path: string) => (to === undefined ? undefined : to + path.slice(from.length))
    const within = (path: string) => (path === from || path.startsWith(`${from}/`)) && !dirty().has(path)
    const next = open().flatMap((path) => (within(path) ? (moved(path) === undefined ? [] : [moved(path)!]) : [path]))
    const current = active()
    setOpen([...new Set(next)])
    if (current && within(current)) setActive(moved(current) ?? next[0])
  }

  function markDirty(path: string, value: boolean): void {
    if (dirty().has(path) === value) return
    const next = new Set(dirty())
    if (value) next.add(path)
    else next.delete(path)
    setDirty(next)
  }

  function close(path: string): void {
    if (dirty().has(path) && !window.confirm(`${name(path)} has unsaved changes. Close it and lose them?`)) return
    const files = open()
    const index = files.indexOf(path)
    const rest = files.filter((candidate) => candidate !== path)
    setOpen(rest)
    markDirty(path, false)
    if (active() === path) setActive(rest[Math.min(index, rest.length - 1)])
    const next = active()
    if (next) tabList.querySelector<HTMLElement>(`[role="tab"][data-path="${CSS.escape(next)}"]`)?.focus()
    else treeBox.querySelector<HTMLElement>('[role="treeitem"][tabindex="0"]')?.focus()
  }

  function onTabKey(event: KeyboardEvent, path: string): void {
    const files = open()
    const target = nextTabIndex(event.key, files.indexOf(path), files.length)
    if (target === undefined) return
    event.preventDefault()
    const next = files[target]!
    setActive(next)
    tabList.querySelector<HTMLElement>(`[role="tab"][data-path="${CSS.escape(next)}"]`)?.focus()
  }

  const tabID = (path: string) => `editor-tab-${encodeURIComponent(path)}`
  const panelID = (path: string) => `editor-panel-${encodeURIComponent(path)}`

  return (
    <div class="files-view" data-file-open={open().length > 0 ? 'true' : 'false'}>
      <div class="files-tree" ref={treeBox}>
        <FileTreeView tree={tree} selected={active()} onOpen={openFile} files={files()} root={props.root} />
      </div>
      <Show when={open().length > 0}>
        <div class="editor-pane">
          <div class="editor-tabs" role="tablist" aria-label="Open files" ref={tabList}>
            <For each={open()}>
              {(path) => (
                <div class="editor-tab" classList={{ active: active() === path }}>
                  <button
                    type="button"
                    role="tab"
                    id={tabID(path)}
                    class="editor-tab-name mono"
                    data-path={path}
                    aria-label={dirty().has(path) ? `${name(path)}, unsaved` : name(path)}
                    aria-selected={active() === path ? 'true' : 'false'}
                    aria-controls={panelID(path)}
                    tabindex={active() === path ? 0 : -1}
                    title={path}
                    onClick={() => setActive(path)}
                    onKeyDown={(event) => onTabKey(event, path)}
                  >
                    {name(path)}
                    <Show when={dirty().has(path)}>
                      <span class="editor-unsaved" aria-hidden="true">
                        ●
                      </span>
                    </Show>
                  </button>
                  <button type="button" class="icon-button editor-tab-close" aria-label={`Close ${name(path)}`} title={`Close ${name(path)}`} onClick={() => close(path)}>
                    <CloseIcon />
                  </button>
                </div>
              )}
            </For>
          </div>
          <For each={open()}>
            {(path) => (
              <div class="editor-panel" role="tabpanel" id={panelID(path)} aria-labelledby={tabID(path)} hidden={active() !== path}>
                <Suspense fallback={<p class="workspace-note quiet">Opening {name(path)}…</p>}>
                  <EditorFile
                    api={props.api}
                    projectID={props.projectID}
                    root={props.root}
                    path={path}
                    sessionID={props.sessionID}
                    changes={props.changes}
                    onDirty={(value) => markDirty(path, value)}
                  />
                </Suspense>
              </div>
            )}
          </For>
        </div>
      </Show>
    </div>
  )
}

/** The file tree's changes when this worker offers them (a test's small fake may not). */
function fileApiOf(api: WorkspaceApi): FileApi | undefined {
  const { createFile, createFolder, renameFile, moveFile, deleteFile, restoreDeleted, writeUploaded, zipProject, readPreviewFile } = api
  if (!createFile || !createFolder || !renameFile || !moveFile || !deleteFile || !restoreDeleted || !writeUploaded || !zipProject) return undefined
  return { createFile, createFolder, renameFile, moveFile, deleteFile, restoreDeleted, writeUploaded, zipProject, readPreviewFile }
}
