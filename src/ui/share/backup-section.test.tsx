// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest'
import { mount } from '../testing/mount'
import { AppError } from '../../core/errors'
import { one, settle } from '../history/testing/history-harness'
import { BackupSection } from './backup-section'
import type { Progress } from '../../core/progress'

type Exporter = (input: { operationID: string }, onProgress: (progress: Progress) => void) => Promise<{ fileName: string; data: Blob; redactions: [] }>

function mountSection(exportBackup: Exporter) {
  const download = vi.fn()
  const onImport = vi.fn()
  const cancelOperation = vi.fn()
  const root = mount(() => <BackupSection exportBackup={exportBackup} cancelOperation={cancelOperation} onImport={onImport} download={download} />)
  return { root, download, onImport, cancelOperation }
}

describe('settings backup section', () => {
  it('saves everything as one file and says which', async () => {
    const data = new Blob(['{"format":"tabcode-backup"}'])
    const { root, download } = mountSection(async () => ({ fileName: 'tabcode-backup-2026-11-30.json', data, redactions: [] }))
    expect(root.querySelector('section h3')?.textContent?.trim()).toBe('Backup')
    one<HTMLButtonElement>(root, 'button', 'Export everything').click()
    await settle()
    expect(download).toHaveBeenCalledWith('tabcode-backup-2026-11-30.json', data)
    expect(one(root, 'status').textContent).toBe('Saved tabcode-backup-2026-11-30.json.')
  })

  it('says when the backup could not be made', async () => {
    const { root, download } = mountSection(async () => Promise.reject(new AppError('StorageFullError', 'The storage is full.', {})))
    one<HTMLButtonElement>(root, 'button', 'Export everything').click()
    await settle()
    expect(download).not.toHaveBeenCalled()
    expect(one(root, 'alert').textContent).toBe("Couldn't export the backup: The storage is full.")
  })

  it('hands a picked file to the importer', async () => {
    const { root, onImport } = mountSection(async () => ({ fileName: 'x.json', data: new Blob(['{}']), redactions: [] }))
    const input = root.querySelector<HTMLInputElement>('input[type="file"]')!
    expect(input.getAttribute('aria-label')).toBe('Import file')
    expect(input.accept).toContain('.json')
    const file = new File(['{}'], 'backup.json', { type: 'application/json' })
    Object.defineProperty(input, 'files', { value: [file], configurable: true })
    input.dispatchEvent(new Event('change', { bubbles: true }))
    expect(onImport).toHaveBeenCalledWith(file)
  })

  it('shows the bar and count while the backup is made, and a cancelled one is never saved', async () => {
    let report!: (progress: Progress) => void
    let finish!: (file: { fileName: string; data: Blob; redactions: [] }) => void
    let operationID = ''
    const { root, download, cancelOperation } = mountSection((input, onProgress) => {
      operationID = input.operationID
      report = onProgress
      return new Promise((resolve) => (finish = resolve))
    })
    one<HTMLButtonElement>(root, 'button', 'Export everything').click()
    await settle()
    report({ type: 'count', unit: 'messages', done: 1_234, total: 5_678 })
    await settle()
    const bar = root.querySelector('progress[aria-label="Backup progress"]')!
    expect([bar.getAttribute('value'), bar.getAttribute('max')]).toEqual(['1234', '5678'])
    expect(root.querySelector('.progress-count')?.textContent).toBe('1,234 of 5,678 messages')
    one<HTMLButtonElement>(root, 'button', 'Cancel backup').click()
    expect(cancelOperation).toHaveBeenCalledWith(operationID)
    finish({ fileName: 'late.json', data: new Blob(['{}']), redactions: [] })
    await settle()
    expect(download).not.toHaveBeenCalled()
    expect(one(root, 'status').textContent).toBe('Backup cancelled. Nothing was saved.')
    expect(root.querySelector('progress')).toBeNull()
  })
})
