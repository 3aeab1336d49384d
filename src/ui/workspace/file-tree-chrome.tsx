import { createUniqueId, For, onCleanup, onMount, Show, type JSX } from 'solid-js'
import type { FileActions } from './create-file-actions'
import { parentOf } from './tree-rows'
import '../kit/menu/menu.css'

// The file tree's controls for changing files, loaded with the actions (not part of the first paint's code).
export { createFileActions } from './create-file-actions'

/** "New file", "New folder", "Upload files", "Download zip", and the name field of a create or a move. */
export function TreeTools(props: {
  actions: FileActions
  root: string
  name: (path: string) => string
  targetFolder: () => string
  onDone: (path: string | undefined, open?: boolean) => void
  onCancel: () => void
}): JSX.Element {
  let upload!: HTMLInputElement
  const actions = () => props.actions
  const field = () => {
    const current = actions().editing()
    if (!current || current.kind === 'rename') return undefined
    if (current.kind === 'move') {
      const from = parentOf(current.path)
      return {
        label: `Move ${props.name(current.path)} to folder`,
        initial: from === props.root ? '' : props.name(from),
        hint: 'A folder in the project, such as src/lib; leave it empty for the top level.',
      }
    }
    const where = current.directory === props.root ? 'the project' : props.name(current.directory)
    return { label: `${current.kind === 'new-file' ? 'New file' : 'New folder'} name in ${where}`, initial: '', hint: undefined }
  }
  return (
    <>
      <div class="tree-toolbar">
        <button type="button" class="button button-small" onClick={() => actions().begin({ kind: 'new-file', directory: props.targetFolder() })}>
          New file
        </button>
        <button type="button" class="button button-small" onClick={() => actions().begin({ kind: 'new-folder', directory: props.targetFolder() })}>
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
            void actions().upload(props.targetFolder(), transfer)
            input.value = ''
          }}
        />
      </div>
      <Show when={field()} keyed>
        {(open) => (
          <NameField
            label={open.label}
            initial={open.initial}
            hint={open.hint}
            problem={actions().problem()}
            onInput={() => actions().clearProblem()}
            onSubmit={(value) => {
              const kind = actions().editing()?.kind
              void actions().submit(value).then((path) => props.onDone(path, kind === 'new-file'))
            }}
            onCancel={() => {
              actions().cancel()
              props.onCancel()
            }}
          />
        )}
      </Show>
    </>
  )
}

/** What the last action did ("Deleted x · Undo"), or why it failed; a live region, so it is announced. */
export function TreeNotice(props: { actions: FileActions; onDone: (path: string | undefined) => void }): JSX.Element {
  return (
    <div class="tree-notice" role="status" aria-label="Files notice">
      <Show when={props.actions.notice()}>
        {(notice) => (
          <>
            <span classList={{ problem: !!notice().problem }}>{notice().text}</span>
            <Show when={notice().undo}>
              {' · '}
              <button type="button" class="button-link" onClick={() => void props.actions.undo().then((path) => props.onDone(path))}>
                Undo
              </button>
            </Show>
            <button type="button" class="icon-button tree-notice-close" aria-label="Dismiss" title="Dismiss" onClick={() => props.actions.dismiss()}>
              ×
            </button>
          </>
        )}
      </Show>
    </div>
  )
}

/** The inline name field of a create, rename or move: Enter submits, Escape cancels, a refusal says why. */
export function NameField(props: {
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

export interface MenuEntry {
  label: string
  run: () => void
  /** Opens a name field (rename, move, new): the focus goes there, not back to the row. */
  field?: boolean
}

/** A row's context menu (right-click, Shift+F10 or the Menu key): arrows move, Escape closes and returns focus. */
export function RowMenu(props: { label: string; x: number; y: number; items: MenuEntry[]; onClose: (refocus: boolean) => void }): JSX.Element {
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
    // Opened near the pointer or the row, but kept inside the window (the tree sits at its right edge).
    const rect = box.getBoundingClientRect()
    if (rect.right > window.innerWidth - 4) box.style.left = `${Math.max(4, window.innerWidth - rect.width - 4)}px`
    if (rect.bottom > window.innerHeight - 4) box.style.top = `${Math.max(4, props.y - rect.height)}px`
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
