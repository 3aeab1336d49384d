type DirectoryPicker = (options: { mode: 'readwrite' }) => Promise<FileSystemDirectoryHandle>

type PermissionHandle = FileSystemDirectoryHandle & {
  requestPermission?: (descriptor: { mode: 'readwrite' }) => Promise<PermissionState>
}

function picker(): DirectoryPicker | undefined {
  return (globalThis as { showDirectoryPicker?: DirectoryPicker }).showDirectoryPicker
}

/** Whether this browser can open a folder on disk as a project (the File System Access API: Chromium-based ones). */
export function canOpenFolders(): boolean {
  return typeof picker() === 'function'
}

/** The browser's folder picker, asking for read and write access; undefined when the user closed it. */
export async function pickFolder(): Promise<FileSystemDirectoryHandle | undefined> {
  const show = picker()
  if (!show) return undefined
  try {
    return await show({ mode: 'readwrite' })
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') return undefined
    throw error
  }
}

/**
 * Asks the user again for access to a folder kept from an earlier visit. Must run in a click's handler: browsers
 * only show the prompt on a user gesture. True when access is granted.
 */
export async function requestFolderAccess(handle: FileSystemDirectoryHandle): Promise<boolean> {
  const request = (handle as PermissionHandle).requestPermission
  if (typeof request !== 'function') return true
  return (await request.call(handle, { mode: 'readwrite' })) === 'granted'
}
