import { DOWNLOAD_MIME } from '../../core/file-type'

/**
 * Saves text or a Blob as a file the way a download link would. The object URL carries `DOWNLOAD_MIME` whatever the
 * content is, so the browser saves it rather than showing it: an export holds other people's text, and a `blob:` URL
 * of this origin opened as a page would have the app's storage in reach. The URL is revoked on the next turn, after
 * the browser has started the download (revoking at once cancels it in some browsers).
 */
export function downloadText(fileName: string, content: string | Blob): void {
  const url = URL.createObjectURL(new Blob([content], { type: DOWNLOAD_MIME }))
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  link.rel = 'noopener'
  link.style.display = 'none'
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 0)
}
