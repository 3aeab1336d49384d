// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest'
import { mount } from '../testing/mount'
import { AppError } from '../../core/errors'
import { one, settle } from '../history/testing/history-harness'
import { BackupSection } from './backup-section'

function mountSection(exportBackup: () => Promise<{ fileName: string; data: Blob; redactions: [] }>) {
  const download = vi.fn()
  const onImport = vi.fn()
  const root = mount(() => <BackupSection exportBackup={exportBackup} onImport={onImport} download={download} />)
  return { root, download, onImport }
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
})
