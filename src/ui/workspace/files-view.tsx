import { createSignal, Show, type JSX } from 'solid-js'
import { createFileTree } from './create-file-tree'
import type { WorkspaceChanges } from './create-workspace-changes'
import { FileTreeView } from './file-tree'
import { FileViewer } from './file-viewer'
import type { WorkspaceApi } from './workspace-api'

/** The Files tab: the tree on top, the file picked in it below. */
export function FilesView(props: { api: WorkspaceApi; projectID: string; root: string; changes: WorkspaceChanges }): JSX.Element {
  // The tree lives as long as this view: folds survive tab switches; another project or root mounts a new view.
  const tree = createFileTree({ api: props.api, projectID: props.projectID, root: props.root, changes: props.changes })
  const [open, setOpen] = createSignal<string>()
  let treeBox!: HTMLDivElement
  return (
    <div class="files-view" data-file-open={open() ? 'true' : 'false'}>
      <div class="files-tree" ref={treeBox}>
        <FileTreeView tree={tree} selected={open()} onOpen={setOpen} />
      </div>
      <Show when={open()}>
        {(path) => (
          <FileViewer
            api={props.api}
            projectID={props.projectID}
            root={props.root}
            path={path()}
            changes={props.changes}
            onClose={() => {
              setOpen(undefined)
              treeBox.querySelector<HTMLElement>('[role="treeitem"][tabindex="0"]')?.focus()
            }}
          />
        )}
      </Show>
    </div>
  )
}
