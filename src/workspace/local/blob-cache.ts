/** Recently read contents by hash, bounded by total bytes; the oldest read goes first. */
export class BlobCache {
  private readonly items = new Map<string, Uint8Array>()
  private bytes = 0

  constructor(private readonly capacity: number) {}

  get(hash: string): Uint8Array | undefined {
    const data = this.items.get(hash)
    if (data === undefined) return undefined
    // Re-inserting moves the hash to the end of the Map's order: the most recently used.
    this.items.delete(hash)
    this.items.set(hash, data)
    return data
  }

  set(hash: string, data: Uint8Array): void {
    if (data.length > this.capacity) return
    const previous = this.items.get(hash)
    if (previous) {
      this.items.delete(hash)
      this.bytes -= previous.length
    }
    this.items.set(hash, data)
    this.bytes += data.length
    for (const [oldest, value] of this.items) {
      if (this.bytes <= this.capacity) break
      this.items.delete(oldest)
      this.bytes -= value.length
    }
  }
}
