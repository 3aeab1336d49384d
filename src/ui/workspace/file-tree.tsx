import { createEffect, createMemo, createSignal, For, Match, onCleanup, Show, Switch, type JSX } from 'solid-js'
import { Dynamic } from 'solid-js/web'
import { FileIcon } from '../kit/icons/file-icon'
import type { FileActions } from './create-file-actions'
import type * as Chrome from './file-tree-chrome'
import type { FileTree } from './create-file-tree'
import { displayPath, type TreeRow } from './tree-rows'

/** The tree's file actions and the controls they show, which load with the first Files tab opened. */
export interface TreeFiles {
  actions: FileActions
  chrome: typeof Chrome
}

// A row dragged inside the tree carries its path under this type; anything else dropped is the OS's files.
const TREE_PATH = 'application/x-tabcode-path'

// Type-ahead per the WAI-ARIA tree pattern: one printable character moves to the next name that starts with it.
const TYPE_AHEAD = /^[\p{L}\p{N}._-]$/u

/**
 * The project's files as a WAI-ARIA tree (one tab stop; arrows move, Right/Left open and close directories,
 * Home/End jump, Enter or Space opens). Rows are flat, so each item states its level and position itself.
 */
export function FileTreeView(props: {
  tree: FileTree
  /** The open file, marked as selected. */
  selected: string | undefined
  onOpen: (path: string) => void
  label?: string
  /** Create, rename, move, delete, upload and download (loaded on first use); without them the tree only browses. */
  files?: TreeFiles | undefined
  /** The project folder (where top-level entries and drops on the tree's background go). */
  root?: string
}): JSX.Element {
  const [active, setActive] = createSignal<string>()
  const [menu, setMenu] = createSignal<{ row: TreeRow; x: number; y: number }>()
  const [dropTarget, setDropTarget] = createSignal<string>()
  // A path to focus once its row is on screen (after a create, rename, move or undo lands through the events).
  const [pendingFocus, setPendingFocus] = createSignal<string>()
  // Keyed by path, so a row (and the focus in it) survives listings being refreshed around it.
  const paths = createMemo(() => props.tree.rows().map((row) => row.stat.path))
  const byPath = createMemo(() => new Map(props.tree.rows().map((row) => [row.stat.path, row])))
  const items = new Map<string, HTMLElement>()
  // The tab stop: the row last focused while it is still on screen, else the open file, else the first row.
  const tabStop = createMemo(() => {
    const rows = byPath()
    for (const candidate of [active(), props.selected]) if (candidate && rows.has(candidate)) return candidate
    return paths()[0]
  })

  const focus = (path: string | undefined) => {
    if (!path) return
    setActive(path)
    items.get(path)?.focus()
  }
  createEffect(() => {
    const path = pendingFocus()
    if (!path || !byPath().has(path)) return
    setPendingFocus(undefined)
    focus(path)
  })
  const root = () => props.root ?? props.tree.rows()[0]?.parent ?? '/'
  const name = (path: string) => displayPath(path, root())
  /** Where "New file" puts it: into the focused folder, else beside the focused file. */
  const targetFolder = () => {
    const row = byPath().get(tabStop() ?? '')
    if (!row) return root()
    return row.stat.type === 'directory' ? row.stat.path : row.parent
  }
  const afterAction = (path: string | undefined, open = false) => {
    if (!path) return
    setPendingFocus(path)
    if (open) props.onOpen(path)
  }
  const removeRow = async (row: TreeRow) => {
    const list = paths()
    const index = list.indexOf(row.stat.path)
    const next = list.slice(index + 1).find((path) => !path.startsWith(`${row.stat.path}/`)) ?? list[index - 1]
    await props.files?.actions?.remove(row.stat.path)
    if (next) setPendingFocus(next)
  }
  const openMenu = (row: TreeRow, x: number, y: number) => setMenu({ row, x, y })
  const menuItems = (row: TreeRow): Chrome.MenuEntry[] => {
    const actions = props.files!.actions
    const path = row.stat.path
    const common = [
      { field: true, label: 'Rename', run: () => actions.begin({ kind: 'rename', path }) },
      { field: true, label: 'Move to…', run: () => actions.begin({ kind: 'move', path }) },
    ]
    if (row.stat.type === 'directory') {
      return [
        { field: true, label: 'New file here', run: () => actions.begin({ kind: 'new-file', directory: path }) },
        { field: true, label: 'New folder here', run: () => actions.begin({ kind: 'new-folder', directory: path }) },
        ...common,
        { label: 'Delete', run: () => void removeRow(row) },
      ]
    }
    return [
      { label: 'Open', run: () => props.onOpen(path) },
      ...common,
      { label: 'Download', run: () => void actions.download(path) },
      { label: 'Delete', run: () => void removeRow(row) },
    ]
  }

  const dragOver = (event: DragEvent, folder: string) => {
    if (!props.files?.actions || !event.dataTransfer) return
    event.preventDefault()
    event.stopPropagation()
    event.dataTransfer.dropEffect = event.dataTransfer.types.includes(TREE_PATH) ? 'move' : 'copy'
    setDropTarget(folder)
  }
  const drop = (event: DragEvent, folder: string) => {
    const actions = props.files?.actions
    const data = event.dataTransfer
    if (!actions || !data) return
    event.preventDefault()
    event.stopPropagation()
    setDropTarget(undefined)
    const source = data.getData(TREE_PATH)
    if (source) void actions.move(source, folder).then((path) => afterAction(path))
    else void actions.upload(folder, data)
  }

  const activate = (row: TreeRow) => {
    if (row.stat.type === 'file') props.onOpen(row.stat.path)
    else if (props.tree.isExpanded(row.stat.path)) props.tree.collapse(row.stat.path)
    else props.tree.expand(row.stat.path)
  }

  /** The tree's own shortcuts for changing files; true when the key was one. */
  const onActionKey = (event: KeyboardEvent, row: TreeRow): boolean => {
    const actions = props.files?.actions
    if (!actions) return false
    if ((event.ctrlKey || event.metaKey) && !event.shiftKey && event.key.toLowerCase() === 'z') {
      void actions.undo().then((path) => afterAction(path))
      return true
    }
    if (event.altKey || event.ctrlKey || event.metaKey) return false
    if (event.key === 'F2') actions.begin({ kind: 'rename', path: row.stat.path })
    else if (event.key === 'Delete') void removeRow(row)
    else if (event.key === 'ContextMenu' || (event.key === 'F10' && event.shiftKey)) {
      const box = (event.currentTarget as HTMLElement).getBoundingClientRect()
      openMenu(row, box.left + 24, box.bottom)
    } else return false
    return true
  }

  const onKeyDown = (event: KeyboardEvent, row: TreeRow) => {
    if (onActionKey(event, row)) {
      event.preventDefault()
      return
    }
    if (event.altKey || event.ctrlKey || event.metaKey) return
    const list = paths()
    const index = list.indexOf(row.stat.path)
    const isDirectory = row.stat.type === 'directory'
    const open = isDirectory && props.tree.isExpanded(row.stat.path)
    switch (event.key) {
      case 'ArrowDown':
        focus(list[index + 1])
        break
      case 'ArrowUp':
        focus(list[index - 1])
        break
      case 'Home':
        focus(list[0])
        break
      case 'End':
        focus(list[list.length - 1])
        break
      case 'ArrowRight':
        if (isDirectory && !open) props.tree.expand(row.stat.path)
        else if (open && byPath().get(list[index + 1] ?? '')?.parent === row.stat.path) focus(list[index + 1])
        break
      case 'ArrowLeft':
        if (open) props.tree.collapse(row.stat.path)
        else if (byPath().has(row.parent)) focus(row.parent)
        break
      case 'Enter':
      case ' ':
        activate(row)
        break
      default: {
        if (!TYPE_AHEAD.test(event.key)) return
        const key = event.key.toLowerCase()
        const rows = byPath()
        const order = [...list.slice(index + 1), ...list.slice(0, index + 1)]
        const match = order.find((path) => rows.get(path)?.stat.name.toLowerCase().startsWith(key))
        if (!match) return
        focus(match)
      }
    }
    event.preventDefault()
  }

  const rootProblem = () => {
    const root = props.tree.root()
    return root?.status === 'error' && paths().length === 0 ? root.message : undefined
  }

  const editing = () => props.files?.actions.editing()
  const chrome = () => props.files!.chrome

  const tree = (
    <Switch>
      <Match when={rootProblem()}>
        <div class="workspace-note">
          <p class="problem">Couldn't list the files: {rootProblem()}</p>
          <button type="button" class="button button-small" onClick={() => props.tree.reload()}>
            List files again
          </button>
        </div>
      </Match>
      <Match when={paths().length === 0}>
        <p class="workspace-note quiet">{props.tree.root()?.status === 'loaded' ? 'No files yet.' : 'Listing files…'}</p>
      </Match>
      <Match when={true}>
        <ul class="file-tree" role="tree" aria-label={props.label ?? 'Files'}>
          <For each={paths()}>
            {(path) => (
              <Show when={byPath().get(path)}>
                {(row) => {
                  const directory = () => row().stat.type === 'directory'
                  const expanded = () => directory() && props.tree.isExpanded(path)
                  const listing = () => (directory() ? props.tree.listing(path) : undefined)
                  const renaming = () => {
                    const current = editing()
                    return current?.kind === 'rename' && current.path === path
                  }
                  onCleanup(() => items.delete(path))
                  return (
                    <li
                      ref={(element) => items.set(path, element)}
                      role="treeitem"
                      class="tree-item"
                      data-path={path}
                      data-type={row().stat.type}
                      aria-level={row().level}
                      aria-setsize={row().setSize}
                      aria-posinset={row().position}
                      aria-expanded={directory() ? expanded() : undefined}
                      aria-selected={directory() ? undefined : props.selected === path}
                      aria-busy={expanded() && listing()?.status === 'loading' ? true : undefined}
                      tabindex={tabStop() === path ? 0 : -1}
                      style={{ '--tree-level': row().level }}
                      onFocus={() => setActive(path)}
                      onClick={() => {
                        focus(path)
                        activate(row())
                      }}
                      onKeyDown={(event) => onKeyDown(event, row())}
                      classList={{ 'tree-item-selected': props.selected === path, 'tree-drop-target': dropTarget() === path }}
                      draggable={props.files?.actions && !renaming() ? true : undefined}
                      onDragStart={(event) => {
                        event.dataTransfer?.setData(TREE_PATH, path)
                        if (event.dataTransfer) event.dataTransfer.effectAllowed = 'copyMove'
                      }}
                      onDragOver={(event) => dragOver(event, directory() ? path : row().parent)}
                      onDragLeave={() => dropTarget() === path && setDropTarget(undefined)}
                      onDrop={(event) => drop(event, directory() ? path : row().parent)}
                      onContextMenu={(event) => {
                        if (!props.files?.actions) return
                        event.preventDefault()
                        focus(path)
                        openMenu(row(), event.clientX, event.clientY)
                      }}
                    >
                      <span class="tree-twisty" aria-hidden="true">
                        {directory() ? (expanded() ? '▾' : '▸') : ''}
                      </span>
                      <FileIcon name={row().stat.name} type={row().stat.type} open={expanded()} />
                      <Show when={renaming()} fallback={<span class="tree-name">{row().stat.name}</span>}>
                        <Dynamic
                          component={chrome().NameField}
                          label={`Rename ${name(path)}`}
                          initial={row().stat.name}
                          problem={props.files?.actions?.problem()}
                          onInput={() => props.files?.actions?.clearProblem()}
                          onSubmit={(value) => void props.files?.actions?.submit(value).then((next) => afterAction(next))}
                          onCancel={() => {
                            props.files?.actions?.cancel()
                            focus(path)
                          }}
                        />
                      </Show>
                      <Show when={expanded() && listing()?.status === 'loading'}>
                        <span class="tree-note faint"> listing…</span>
                      </Show>
                      <Show when={expanded() && listing()?.status === 'error'}>
                        <span class="tree-note problem"> couldn't list</span>
                      </Show>
                      <Show when={expanded() && listing()?.status === 'loaded' && listing()?.entries.length === 0}>
                        <span class="tree-note faint"> empty</span>
                      </Show>
                    </li>
                  )
                }}
              </Show>
            )}
          </For>
        </ul>
      </Match>
    </Switch>
  )

  return (
    <Show when={props.files} fallback={tree}>
      {(files) => {
        const { TreeTools, TreeNotice, RowMenu } = files().chrome
        return (
          <div
            class="file-tree-box"
            classList={{ 'tree-drop-target': dropTarget() === root() }}
            onDragOver={(event) => dragOver(event, root())}
            onDragLeave={(event) => {
              if (!(event.currentTarget as HTMLElement).contains(event.relatedTarget as Node | null)) setDropTarget(undefined)
            }}
            onDrop={(event) => drop(event, root())}
          >
            <TreeTools
              actions={files().actions}
              root={root()}
              name={name}
              targetFolder={targetFolder}
              onDone={afterAction}
              onCancel={() => focus(tabStop())}
            />
            {tree}
            <TreeNotice actions={files().actions} onDone={afterAction} />
            <Show when={menu()} keyed>
              {(open) => (
                <RowMenu
                  label={`Actions for ${name(open.row.stat.path)}`}
                  x={open.x}
                  y={open.y}
                  items={menuItems(open.row)}
                  onClose={(refocus) => {
                    setMenu(undefined)
                    if (refocus) focus(open.row.stat.path)
                  }}
                />
              )}
            </Show>
          </div>
        )
      }}
    </Show>
  )
}
