import { createSignal, createUniqueId, Show, type JSX } from 'solid-js'
import type { ExportFile } from '../../core/dto/share'
import type { Progress } from '../../core/progress'
import { errorMessage } from '../kit/format/error'
import { ProgressMeter } from '../kit/progress/progress-meter'
import { downloadText } from './download'
import { ImportButton } from './import-button'

export interface BackupActions {
  /** Makes the backup as the operation `operationID`, reporting how far it is to `onProgress`. */
  exportBackup: (input: { operationID: string }, onProgress: (progress: Progress) => void) => Promise<ExportFile>
  /** Asks the worker to stop the operation (a cancelled backup is never downloaded, whatever the worker does). */
  cancelOperation?: (operationID: string) => void
  /** Takes the picked file away to be imported (the settings dialog closes so the result can be shown). */
  onImport: (file: File) => void
  download?: (fileName: string, content: string | Blob) => void
}

/** Settings › Backup: every session to one file, and any export (a backup, a session, an opencode export) back in. */
export function BackupSection(props: BackupActions): JSX.Element {
  const headingID = createUniqueId()
  const [running, setRunning] = createSignal<string>()
  const [progress, setProgress] = createSignal<Progress>()
  const [note, setNote] = createSignal<{ tone: 'status' | 'alert'; text: string }>()
  const exportEverything = async () => {
    const operationID = `backup-${crypto.randomUUID()}`
    setRunning(operationID)
    setProgress({ type: 'working' })
    setNote(undefined)
    try {
      const file = await props.exportBackup({ operationID }, (report) => running() === operationID && setProgress(report))
      // Cancelled after the worker had finished: still nothing is saved.
      if (running() !== operationID) return
      ;(props.download ?? downloadText)(file.fileName, file.data)
      setNote({ tone: 'status', text: `Saved ${file.fileName}.` })
    } catch (error) {
      if (running() !== operationID) return
      setNote({ tone: 'alert', text: `Couldn't export the backup: ${errorMessage(error)}` })
    } finally {
      if (running() === operationID) setRunning(undefined)
      setProgress(undefined)
    }
  }
  const cancel = () => {
    const operationID = running()
    if (!operationID) return
    setRunning(undefined)
    setProgress(undefined)
    props.cancelOperation?.(operationID)
    setNote({ tone: 'status', text: 'Backup cancelled. Nothing was saved.' })
  }
  return (
    <section class="settings-section" aria-labelledby={headingID}>
      <h3 id={headingID} class="settings-heading">
        Backup
      </h3>
      <p class="field-hint">
        A backup holds every project's sessions, messages and parts; never providers, keys or settings. Importing adds
        what is missing and never overwrites.
      </p>
      <div class="backup-actions">
        <button type="button" class="button button-small" disabled={running() !== undefined} onClick={() => void exportEverything()}>
          {running() ? 'Exporting…' : 'Export everything'}
        </button>
        <Show when={running()}>
          <ProgressMeter label="Backup progress" progress={progress()} />
          <button type="button" class="button button-small button-quiet" onClick={cancel}>
            Cancel backup
          </button>
        </Show>
        <ImportButton onFile={(file) => props.onImport(file)} />
      </div>
      <Show when={note()}>
        {(current) => (
          <p class={current().tone === 'alert' ? 'problem' : 'field-hint'} role={current().tone}>
            {current().text}
          </p>
        )}
      </Show>
    </section>
  )
}
