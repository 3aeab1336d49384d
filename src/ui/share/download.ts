/**
 * Saves text or a Blob as a file the way a download link would. The object URL is revoked on the next turn, after the
 * browser has started the download (revoking at once cancels it in some browsers).
 */
export function downloadText(fileName: string, content: string | Blob, type = 'application/json'): void {
  const url = URL.createObjectURL(typeof content === 'string' ? new Blob([content], { type }) : content)
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
