import { createSignal, onCleanup, type Accessor } from 'solid-js'
import { baseName, childPath, moveProblem, nameProblem } from '../../core/file-names'
import { DOWNLOAD_MIME } from '../../core/file-type'
import type { DeletedEntry } from '../../core/protocol'
import { errorMessage } from '../kit/format/error'
import { readDroppedItems, readPickedFiles, type PickedFile } from '../project/read-dropped-files'
import type { FileTree } from './create-file-tree'
import { displayPath, parentOf } from './tree-rows'
import type { FileApi } from './workspace-api'

/** What the tree is asking a name for: a new entry in a folder, a rename, or the folder to move into. */
export type Editing = { kind: 'new-file' | 'new-folder'; directory: string } | { kind: 'rename'; path: string } | { kind: 'move'; path: string }

export interface TreeNotice {
  text: string
  /** A delete that "Undo" takes back. */
  undo?: boolean
  problem?: boolean
}

export interface FileActions {
  editing: Accessor<Editing | undefined>
  /** What is wrong with the value typed (shown under the field), until it changes. */
  problem: Accessor<string | undefined>
  notice: Accessor<TreeNotice | undefined>
  begin(editing: Editing): void
  cancel(): void
  clearProblem(): void
  /** Submits the field's value; resolves to the path it made (to focus), or undefined when it was refused. */
  submit(value: string): Promise<string | undefined>
  remove(path: string): Promise<void>
  /** Undoes the last delete (the notice's Undo, or Ctrl+Z in the tree while none is newer). */
  undo(): Promise<string | undefined>
  move(path: string, directory: string): Promise<string | undefined>
  upload(directory: string, data: DataTransfer): Promise<void>
  download(path: string): Promise<void>
  downloadProject(): Promise<void>
  dismiss(): void
}

// Long enough to read and reach with the keyboard; Ctrl+Z in the tree keeps working after it is gone.
const NOTICE_MS = 10_000

/** The file tree's changes: each is one worker call, and the tree shows the result through its change events. */
export function createFileActions(options: {
  api: FileApi
  projectID: string
  root: string
  tree: FileTree
  sessionID: () => string | undefined
  /** A file or folder now lives at `to` (renamed or moved), or is gone (`to` undefined): open tabs follow it. */
  onRelocated?: (from: string, to: string | undefined) => void
}): FileActions {
  const { api, projectID, root, tree } = options
  const [editing, setEditing] = createSignal<Editing>()
  const [problem, setProblem] = createSignal<string>()
  const [notice, setNotice] = createSignal<TreeNotice>()
  let lastDelete: DeletedEntry | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  onCleanup(() => clearTimeout(timer))

  const name = (path: string) => displayPath(path, root)
  const session = () => {
    const id = options.sessionID()
    return id ? { sessionID: id } : {}
  }
  const show = (next: TreeNotice | undefined) => {
    clearTimeout(timer)
    setNotice(next)
    if (next && !next.problem) timer = setTimeout(() => setNotice(undefined), NOTICE_MS)
  }
  const siblings = (directory: string, except?: string) => (tree.listing(directory)?.entries ?? []).map((entry) => entry.name).filter((entry) => entry !== except)
  /** Runs a worker call, showing its failure as the notice (or the field's problem while a field is open). */
  async function attempt<T>(call: () => Promise<T>, inField = false): Promise<T | undefined> {
    try {
      return await call()
    } catch (error) {
      if (inField) setProblem(errorMessage(error))
      else show({ text: errorMessage(error), problem: true })
      return undefined
    }
  }

  function folderFromInput(value: string): string {
    const trimmed = value.trim().replace(/^\/+|\/+$/g, '')
    if (trimmed === '' || trimmed === '.') return root
    return trimmed.startsWith(`${root.slice(1)}/`) || `/${trimmed}` === root ? `/${trimmed}` : childPath(root, trimmed)
  }

  async function move(path: string, directory: string): Promise<string | undefined> {
    const refused = moveProblem(path, directory)
    if (refused) {
      show({ text: refused, problem: true })
      return undefined
    }
    const moved = await attempt(() => api.moveFile({ projectID, path, directory, ...session() }))
    if (!moved) return undefined
    options.onRelocated?.(path, moved.path)
    if (directory !== root) tree.expand(directory)
    show({ text: `Moved ${baseName(path)} to ${name(directory)}` })
    return moved.path
  }

  return {
    editing,
    problem,
    notice,
    begin(next) {
      setProblem(undefined)
      if (next.kind === 'new-file' || next.kind === 'new-folder') {
        if (next.directory !== root) tree.expand(next.directory)
      }
      setEditing(next)
    },
    cancel() {
      setProblem(undefined)
      setEditing(undefined)
    },
    clearProblem: () => setProblem(undefined),
    async submit(value) {
      const current = editing()
      if (!current) return undefined
      if (current.kind === 'move') {
        const directory = folderFromInput(value)
        const refused = moveProblem(current.path, directory)
        if (refused) return void setProblem(refused)
        const moved = await attempt(() => api.moveFile({ projectID, path: current.path, directory, ...session() }), true)
        if (!moved) return undefined
        options.onRelocated?.(current.path, moved.path)
        setEditing(undefined)
        if (directory !== root) tree.expand(directory)
        show({ text: `Moved ${baseName(current.path)} to ${name(directory)}` })
        return moved.path
      }
      const directory = current.kind === 'rename' ? parentOf(current.path) : current.directory
      const except = current.kind === 'rename' ? baseName(current.path) : undefined
      if (current.kind === 'rename' && value === except) {
        setEditing(undefined)
        return current.path
      }
      const refused = nameProblem(value, siblings(directory, except))
      if (refused) return void setProblem(refused)
      const input = { projectID, directory, name: value, ...session() }
      const done = await attempt(
        () =>
          current.kind === 'rename'
            ? api.renameFile({ projectID, path: current.path, name: value, ...session() })
            : current.kind === 'new-file'
              ? api.createFile(input)
              : api.createFolder(input),
        true,
      )
      if (!done) return undefined
      if (current.kind === 'rename') options.onRelocated?.(current.path, done.path)
      setEditing(undefined)
      return done.path
    },
    async remove(path) {
      const removed = await attempt(() => api.deleteFile({ projectID, path, ...session() }))
      if (!removed) return
      options.onRelocated?.(path, undefined)
      lastDelete = removed
      const contents = removed.type === 'directory' ? ` (${removed.files} ${removed.files === 1 ? 'file' : 'files'})` : ''
      show({ text: `Deleted ${name(path)}${contents}`, undo: true })
    },
    async undo() {
      const entry = lastDelete
      if (!entry) return undefined
      const restored = await attempt(() => api.restoreDeleted({ token: entry.token, ...session() }))
      if (!restored) return undefined
      lastDelete = undefined
      show({ text: `Restored ${name(entry.path)}` })
      return restored.path
    },
    move,
    async upload(directory, data) {
      const files = await attempt(() => droppedFiles(data))
      if (!files || files.length === 0) return
      const written = await attempt(() => api.writeUploaded({ projectID, directory, files, ...session() }))
      if (!written) return
      if (directory !== root) tree.expand(directory)
      const count = written.written.length
      show({ text: `Uploaded ${count} ${count === 1 ? 'file' : 'files'} to ${name(directory)}` })
    },
    async download(path) {
      const data = await attempt(() => api.readPreviewFile({ projectID, path }))
      if (data) saveAs(baseName(path), data)
      else if (data === null) show({ text: `${name(path)} is not there any more.`, problem: true })
    },
    async downloadProject() {
      const zip = await attempt(() => api.zipProject({ projectID }))
      if (zip) saveAs(zip.name, zip.data)
    },
    dismiss: () => show(undefined),
  }
}

/** A drop's files: a folder is walked with the entries API; plain files (and synthetic drops) come from `files`. */
async function droppedFiles(data: DataTransfer): Promise<PickedFile[]> {
  const entries = [...data.items].map((item) => item.webkitGetAsEntry?.()).filter((entry): entry is FileSystemEntry => !!entry)
  if (entries.some((entry) => entry.isDirectory)) return (await readDroppedItems(data.items)).files
  return readPickedFiles(data.files)
}

/** Saves bytes as a file. Always as `DOWNLOAD_MIME`: a project file (an `.html`, an `.svg`) must never open as a page here. */
function saveAs(name: string, data: Uint8Array): void {
  const url = URL.createObjectURL(new Blob([data as Uint8Array<ArrayBuffer>], { type: DOWNLOAD_MIME }))
  const link = document.createElement('a')
  link.href = url
  link.download = name
  link.click()
  // The download has started once the click is handled; the URL is kept a moment for browsers that read it late.
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}
