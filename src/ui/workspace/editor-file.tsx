import { createSignal, Match, onCleanup, onMount, Show, Switch, type JSX } from 'solid-js'
import type { FileDiff } from '../../core/schema'
import type { CodeEditor } from '../kit/code/editor'
import { errorMessage } from '../kit/format/error'
import type { WorkspaceChanges } from './create-workspace-changes'
import { DiffView } from '../kit/diff/diff-view'
import { FileViewer } from './file-viewer'
import { formatBytes } from './file-lines'
import { displayPath, isWithin } from './tree-rows'
import type { WorkspaceApi } from './workspace-api'

/** Past this a file opens read-only: CodeMirror copes, but a file this size is data, not something to type into. */
export const MAX_EDITABLE_BYTES = 2 * 1024 * 1024

type Shown =
  | { status: 'loading' }
  | { status: 'editing' }
  | { status: 'read-only'; reason: string }
  | { status: 'error'; message: string }

/** The file changed on disk while the user had unsaved edits: both versions, until the user decides. */
interface Conflict {
  theirs: string
  diff?: FileDiff
}

/**
 * One open file in the editor. It keeps `base`, the text on disk the user's edits start from: a save sends it as
 * `expected`, so a file that changed meanwhile is never overwritten unseen. When the file changes on disk, a clean
 * editor takes the new text; an editor with unsaved edits shows the conflict and keeps both until the user picks.
 */
export function EditorFile(props: {
  api: WorkspaceApi
  projectID: string
  root: string
  path: string
  sessionID?: string | undefined
  changes: WorkspaceChanges
  onDirty: (dirty: boolean) => void
}): JSX.Element {
  const [shown, setShown] = createSignal<Shown>({ status: 'loading' })
  const [conflict, setConflict] = createSignal<Conflict>()
  const [note, setNote] = createSignal<{ text: string; problem?: boolean }>()
  const [removed, setRemoved] = createSignal(false)
  let host!: HTMLDivElement
  let editor: CodeEditor | undefined
  let base = ''
  // The text a save in flight is writing: its own change event must not look like someone else's write.
  let saving: string | undefined
  let disposed = false
  const name = () => displayPath(props.path, props.root)

  function updateDirty(): void {
    props.onDirty(editor !== undefined && editor.text() !== base)
  }

  async function readText(): Promise<string | undefined> {
    const content = await props.api.readFile({ projectID: props.projectID, path: props.path })
    return content.type === 'text' ? content.text : undefined
  }

  onMount(async () => {
    try {
      const content = await props.api.readFile({ projectID: props.projectID, path: props.path })
      if (disposed) return
      if (content.type === 'binary') return setShown({ status: 'read-only', reason: `Binary file, ${formatBytes(content.size)}: it can't be edited here.` })
      if (content.size > MAX_EDITABLE_BYTES) {
        return setShown({ status: 'read-only', reason: `This file is ${formatBytes(content.size)}, too large to edit here; it is shown read-only.` })
      }
      const { createCodeEditor } = await import('../kit/code/editor')
      if (disposed) return
      base = content.text
      setShown({ status: 'editing' })
      editor = createCodeEditor({
        parent: host,
        text: content.text,
        file: props.path,
        label: `Edit ${name()}`,
        onChange: updateDirty,
        onSave: () => void save(),
      })
    } catch (error) {
      if (!disposed) setShown({ status: 'error', message: errorMessage(error) })
    }
  })

  onCleanup(() => {
    disposed = true
    editor?.destroy()
  })

  onCleanup(
    props.changes.subscribe((change) => {
      if (change.type === 'remove' && isWithin(props.path, change.path)) setRemoved(true)
      else if (change.type === 'write' && change.path === props.path) {
        setRemoved(false)
        void reloadFromDisk()
      }
    }),
  )

  async function reloadFromDisk(): Promise<void> {
    if (!editor) return
    let theirs: string | undefined
    try {
      theirs = await readText()
    } catch {
      return
    }
    if (theirs === undefined || !editor || theirs === base || theirs === saving) return
    const mine = editor.text()
    if (mine === base || mine === theirs) {
      // Nothing of the user's would be lost: follow the disk.
      base = theirs
      if (mine !== theirs) editor.replace(theirs)
      setConflict(undefined)
      updateDirty()
      return
    }
    setConflict({ theirs })
  }

  async function save(expected = base): Promise<void> {
    if (!editor || saving !== undefined) return
    const content = editor.text()
    saving = content
    try {
      await props.api.saveFile({
        projectID: props.projectID,
        path: props.path,
        content,
        expected,
        ...(props.sessionID ? { sessionID: props.sessionID } : {}),
      })
      base = content
      setConflict(undefined)
      setRemoved(false)
      setNote({ text: `Saved ${name()}` })
    } catch (error) {
      if (error instanceof Error && error.name === 'SaveConflictError') {
        const theirs = await readText().catch(() => undefined)
        if (theirs !== undefined) setConflict({ theirs })
      } else {
        setNote({ text: `Couldn't save ${name()}: ${errorMessage(error)}`, problem: true })
      }
    } finally {
      saving = undefined
      updateDirty()
    }
  }

  async function keepMine(): Promise<void> {
    const current = conflict()
    if (current) await save(current.theirs)
    editor?.focus()
  }

  function takeTheirs(): void {
    const current = conflict()
    if (!current || !editor) return
    base = current.theirs
    editor.replace(current.theirs)
    setConflict(undefined)
    updateDirty()
    editor.focus()
  }

  async function toggleDiff(): Promise<void> {
    const current = conflict()
    if (!current || !editor) return
    if (current.diff) return void setConflict({ theirs: current.theirs })
    const { conflictDiff } = await import('./conflict-diff')
    setConflict({ theirs: current.theirs, diff: conflictDiff(name(), current.theirs, editor.text()) })
  }

  return (
    <div class="editor-file" data-path={props.path}>
      <Show when={conflict()}>
        {(current) => (
          <div class="editor-conflict" role="alert">
            <p>{name()} changed on disk while you had unsaved edits. Both versions are kept until you choose.</p>
            <div class="editor-conflict-actions">
              <button type="button" class="button button-small" onClick={() => void keepMine()}>
                Keep mine
              </button>
              <button type="button" class="button button-small button-quiet" onClick={takeTheirs}>
                Take theirs
              </button>
              <button type="button" class="button button-small button-quiet" aria-pressed={current().diff ? 'true' : 'false'} onClick={() => void toggleDiff()}>
                Show diff
              </button>
            </div>
            <Show when={current().diff}>
              {(diff) => <DiffView diffs={[diff()]} label={`Your version of ${name()} against the one on disk`} empty="The two versions are the same." />}
            </Show>
          </div>
        )}
      </Show>
      <Show when={removed()}>
        <p class="workspace-note quiet">This file was deleted on disk. Save to write it again.</p>
      </Show>
      <Switch>
        <Match when={shown().status === 'loading'}>
          <p class="workspace-note quiet">Opening {name()}…</p>
        </Match>
        <Match when={shown().status === 'error' && shown()}>
          {(current) => <p class="workspace-note problem">Couldn't open the file: {(current() as { message: string }).message}</p>}
        </Match>
        <Match when={shown().status === 'read-only' && shown()}>
          {(current) => (
            <>
              <p class="workspace-note quiet editor-read-only">{(current() as { reason: string }).reason}</p>
              <FileViewer api={props.api} projectID={props.projectID} root={props.root} path={props.path} changes={props.changes} />
            </>
          )}
        </Match>
      </Switch>
      <div class="editor-host" ref={host} hidden={shown().status !== 'editing'} />
      <p class="editor-status" role="status" classList={{ problem: note()?.problem === true }}>
        {note()?.text ?? ''}
      </p>
    </div>
  )
}
