import { createSignal, createUniqueId, Show, type JSX } from 'solid-js'
import type { ExportFile } from '../../core/dto/share'
import { errorMessage } from '../kit/format/error'
import { downloadText } from './download'
import { ImportButton } from './import-button'

export interface BackupActions {
  exportBackup: () => Promise<ExportFile>
  /** Takes the picked file away to be imported (the settings dialog closes so the result can be shown). */
  onImport: (file: File) => void
  download?: (fileName: string, content: string | Blob) => void
}

/** Settings › Backup: every session to one file, and any export (a backup, a session, an opencode export) back in. */
export function BackupSection(props: BackupActions): JSX.Element {
  const headingID = createUniqueId()
  const [busy, setBusy] = createSignal(false)
  const [note, setNote] = createSignal<{ tone: 'status' | 'alert'; text: string }>()
  const exportEverything = async () => {
    setBusy(true)
    setNote(undefined)
    try {
      const file = await props.exportBackup()
      ;(props.download ?? downloadText)(file.fileName, file.data)
      setNote({ tone: 'status', text: `Saved ${file.fileName}.` })
    } catch (error) {
      setNote({ tone: 'alert', text: `Couldn't export the backup: ${errorMessage(error)}` })
    } finally {
      setBusy(false)
    }
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
        <button type="button" class="button button-small" disabled={busy()} onClick={() => void exportEverything()}>
          {busy() ? 'Exporting…' : 'Export everything'}
        </button>
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
