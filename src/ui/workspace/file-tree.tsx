import { createEffect, createMemo, createSignal, createUniqueId, For, Match, onCleanup, onMount, Show, Switch, type JSX } from 'solid-js'
import { FileIcon } from '../icons/file-icon'
import type { FileActions } from './create-file-actions'
import type { FileTree } from './create-file-tree'
import { displayPath, parentOf, type TreeRow } from './tree-rows'
import '../menu/menu.css'

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
  /** Create, rename, move, delete, upload and download; without them the tree only browses. */
  actions?: FileActions | undefined
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
    await props.actions?.remove(row.stat.path)
    if (next) setPendingFocus(next)
  }
  const openMenu = (row: TreeRow, x: number, y: number) => setMenu({ row, x, y })
  const menuItems = (row: TreeRow): MenuEntry[] => {
    const actions = props.actions!
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
    if (!props.actions || !event.dataTransfer) return
    event.preventDefault()
    event.stopPropagation()
    event.dataTransfer.dropEffect = event.dataTransfer.types.includes(TREE_PATH) ? 'move' : 'copy'
    setDropTarget(folder)
  }
  const drop = (event: DragEvent, folder: string) => {
    const actions = props.actions
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
    const actions = props.actions
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

  const editing = () => props.actions?.editing()
  const topField = () => {
    const current = editing()
    if (!current || current.kind === 'rename') return undefined
    if (current.kind === 'move') {
      const from = parentOf(current.path)
      return { label: `Move ${name(current.path)} to folder`, initial: from === root() ? '' : name(from), hint: 'A folder in the project, such as src/lib; leave it empty for the top level.' }
    }
    const where = current.directory === root() ? 'the project' : name(current.directory)
    return { label: `${current.kind === 'new-file' ? 'New file' : 'New folder'} name in ${where}`, initial: '', hint: undefined }
  }
  let upload!: HTMLInputElement

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
                      draggable={props.actions && !renaming() ? true : undefined}
                      onDragStart={(event) => {
                        event.dataTransfer?.setData(TREE_PATH, path)
                        if (event.dataTransfer) event.dataTransfer.effectAllowed = 'copyMove'
                      }}
                      onDragOver={(event) => dragOver(event, directory() ? path : row().parent)}
                      onDragLeave={() => dropTarget() === path && setDropTarget(undefined)}
                      onDrop={(event) => drop(event, directory() ? path : row().parent)}
                      onContextMenu={(event) => {
                        if (!props.actions) return
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
                        <NameField
                          label={`Rename ${name(path)}`}
                          initial={row().stat.name}
                          problem={props.actions?.problem()}
                          onInput={() => props.actions?.clearProblem()}
                          onSubmit={(value) => void props.actions?.submit(value).then((next) => afterAction(next))}
                          onCancel={() => {
                            props.actions?.cancel()
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
    <Show when={props.actions} fallback={tree}>
      {(actions) => (
        <div
          class="file-tree-box"
          classList={{ 'tree-drop-target': dropTarget() === root() }}
          onDragOver={(event) => dragOver(event, root())}
          onDragLeave={(event) => {
            if (!(event.currentTarget as HTMLElement).contains(event.relatedTarget as Node | null)) setDropTarget(undefined)
          }}
          onDrop={(event) => drop(event, root())}
        >
          <div class="tree-toolbar">
            <button type="button" class="button button-small" onClick={() => actions().begin({ kind: 'new-file', directory: targetFolder() })}>
              New file
            </button>
            <button type="button" class="button button-small" onClick={() => actions().begin({ kind: 'new-folder', directory: targetFolder() })}>
              New folder
            </button>
            <button type="button" class="button button-small" onClick={() => upload.click()}>
              Upload files
            </button>
            <button type="button" class="button button-small" onClick={() => void actions().downloadProject()}>
              Download zip
            </button>
            <input
              ref={upload}
              type="file"
              multiple
              hidden
              aria-label="Files to upload"
              onChange={(event) => {
                const input = event.currentTarget
                const transfer = new DataTransfer()
                for (const file of input.files ?? []) transfer.items.add(file)
                void actions().upload(targetFolder(), transfer)
                input.value = ''
              }}
            />
          </div>
          <Show when={topField()} keyed>
            {(field) => (
              <NameField
                label={field.label}
                initial={field.initial}
                hint={field.hint}
                problem={actions().problem()}
                onInput={() => actions().clearProblem()}
                onSubmit={(value) => {
                  const kind = editing()?.kind
                  void actions().submit(value).then((path) => afterAction(path, kind === 'new-file'))
                }}
                onCancel={() => {
                  actions().cancel()
                  focus(tabStop())
                }}
              />
            )}
          </Show>
          {tree}
          <div class="tree-notice" role="status" aria-label="Files notice">
            <Show when={actions().notice()}>
              {(notice) => (
                <>
                  <span classList={{ problem: !!notice().problem }}>{notice().text}</span>
                  <Show when={notice().undo}>
                    {' · '}
                    <button type="button" class="button-link" onClick={() => void actions().undo().then((path) => afterAction(path))}>
                      Undo
                    </button>
                  </Show>
                  <button type="button" class="icon-button tree-notice-close" aria-label="Dismiss" title="Dismiss" onClick={() => actions().dismiss()}>
                    ×
                  </button>
                </>
              )}
            </Show>
          </div>
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
      )}
    </Show>
  )
}

/** The inline name field of a create, rename or move: Enter submits, Escape cancels, a refusal says why. */
function NameField(props: {
  label: string
  initial: string
  hint?: string | undefined
  problem: string | undefined
  onInput: () => void
  onSubmit: (value: string) => void
  onCancel: () => void
}): JSX.Element {
  const problemID = createUniqueId()
  const hintID = createUniqueId()
  let input!: HTMLInputElement
  onMount(() => {
    input.focus()
    // The name without its extension is selected, so typing replaces "app" in "app.ts".
    const dot = props.initial.lastIndexOf('.')
    input.setSelectionRange(0, dot > 0 ? dot : props.initial.length)
  })
  return (
    <form
      class="tree-field"
      onSubmit={(event) => {
        event.preventDefault()
        props.onSubmit(input.value)
      }}
      onClick={(event) => event.stopPropagation()}
    >
      <input
        ref={input}
        class="text-input tree-input mono"
        value={props.initial}
        aria-label={props.label}
        aria-invalid={props.problem ? 'true' : undefined}
        aria-describedby={[props.problem ? problemID : '', props.hint ? hintID : ''].filter(Boolean).join(' ') || undefined}
        spellcheck={false}
        autocomplete="off"
        onInput={() => props.onInput()}
        onKeyDown={(event) => {
          // The tree's arrows, F2 and Delete belong to the rows, not to the text being typed.
          event.stopPropagation()
          if (event.key === 'Escape') {
            event.preventDefault()
            props.onCancel()
          }
        }}
      />
      <Show when={props.hint}>
        <p id={hintID} class="tree-field-hint faint">
          {props.hint}
        </p>
      </Show>
      <Show when={props.problem}>
        <p id={problemID} class="tree-field-problem problem" role="alert">
          {props.problem}
        </p>
      </Show>
    </form>
  )
}

interface MenuEntry {
  label: string
  run: () => void
  /** Opens a name field (rename, move, new): the focus goes there, not back to the row. */
  field?: boolean
}

/** A row's context menu (right-click, Shift+F10 or the Menu key): arrows move, Escape closes and returns focus. */
function RowMenu(props: { label: string; x: number; y: number; items: MenuEntry[]; onClose: (refocus: boolean) => void }): JSX.Element {
  let box!: HTMLDivElement
  const entries = () => [...box.querySelectorAll<HTMLElement>('[role="menuitem"]')]
  const focusItem = (index: number) => {
    const list = entries()
    if (list.length) list[(index + list.length) % list.length]!.focus()
  }
  const onOutside = (event: PointerEvent) => {
    if (!box.contains(event.target as Node)) props.onClose(false)
  }
  onMount(() => {
    focusItem(0)
    document.addEventListener('pointerdown', onOutside)
  })
  onCleanup(() => document.removeEventListener('pointerdown', onOutside))
  const onKey = (event: KeyboardEvent) => {
    const index = entries().indexOf(document.activeElement as HTMLElement)
    const moves: Record<string, () => void> = {
      ArrowDown: () => focusItem(index + 1),
      ArrowUp: () => focusItem(index - 1),
      Home: () => focusItem(0),
      End: () => focusItem(-1),
      Escape: () => props.onClose(true),
    }
    const move = moves[event.key]
    if (move) {
      event.preventDefault()
      event.stopPropagation()
      move()
    } else if (event.key === 'Tab') props.onClose(false)
  }
  return (
    <div class="menu-popup tree-menu" style={{ left: `${props.x}px`, top: `${props.y}px` }} ref={box}>
      <div class="menu" role="menu" aria-label={props.label} onKeyDown={onKey}>
        <For each={props.items}>
          {(item) => (
            <button
              type="button"
              role="menuitem"
              tabindex="-1"
              class="menu-item"
              onClick={() => {
                // An item that opens a name field leaves the focus to it; the others return it to the row.
                props.onClose(!item.field)
                item.run()
              }}
            >
              {item.label}
            </button>
          )}
        </For>
      </div>
    </div>
  )
}
