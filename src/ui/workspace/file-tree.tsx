import { createMemo, createSignal, For, Match, onCleanup, Show, Switch, type JSX } from 'solid-js'
import type { FileTree } from './create-file-tree'
import type { TreeRow } from './tree-rows'

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
}): JSX.Element {
  const [active, setActive] = createSignal<string>()
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
  const activate = (row: TreeRow) => {
    if (row.stat.type === 'file') props.onOpen(row.stat.path)
    else if (props.tree.isExpanded(row.stat.path)) props.tree.collapse(row.stat.path)
    else props.tree.expand(row.stat.path)
  }

  const onKeyDown = (event: KeyboardEvent, row: TreeRow) => {
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

  return (
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
                  onCleanup(() => items.delete(path))
                  return (
                    <li
                      ref={(element) => items.set(path, element)}
                      role="treeitem"
                      class="tree-item"
                      classList={{ 'tree-item-selected': props.selected === path }}
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
                    >
                      <span class="tree-twisty" aria-hidden="true">
                        {directory() ? (expanded() ? '▾' : '▸') : ''}
                      </span>
                      <span class="tree-name">{row().stat.name}</span>
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
}
