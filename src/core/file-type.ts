/**
 * What a file's bytes are, whatever its name or claimed type says. A stranger's file (an attachment in a share link,
 * a project from a zip) can be named `photo.png` and hold an SVG page with a script, or be called `report.pdf` and
 * hold an archive: the name and type are claims, the first bytes are evidence. Both the page (what may be shown, and
 * as what) and the model's messages (what may be sent as an image or a PDF) decide from `sniffBytes`.
 */

/** What the first bytes of a file are: a format known by its magic number, text, or something else. */
export type ByteKind = 'png' | 'jpeg' | 'gif' | 'webp' | 'pdf' | 'zip' | 'text' | 'other'

/** The image formats a browser paints as pixels only, never as a document: no script, no links, no fetches. */
export type RasterKind = 'png' | 'jpeg' | 'gif' | 'webp'

const RASTER_MIMES: Record<RasterKind, string> = { png: 'image/png', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' }

/**
 * The type of every object URL that is not a thumbnail of a proven raster image (`imageType`): the browser saves
 * such bytes, never shows them. Never a file's claimed type: `text/html`, `image/svg+xml`, `application/xml` or
 * `application/pdf` at a `blob:` URL of our origin would be a page with the app's storage in reach.
 */
export const DOWNLOAD_MIME = 'application/octet-stream'

/** How many leading bytes `sniffBytes` reads: as far as git's binary heuristic (and `textOf`) looks for a NUL. */
export const SNIFF_BYTES = 8000

const bytesOf = (text: string) => Array.from(text, (char) => char.charCodeAt(0))
const PNG = [0x89, ...bytesOf('PNG\r\n\x1a\n')]
const JPEG = [0xff, 0xd8, 0xff]
const GIF87 = bytesOf('GIF87a')
const GIF89 = bytesOf('GIF89a')
const RIFF = bytesOf('RIFF')
const WEBP = bytesOf('WEBP')
const PDF = bytesOf('%PDF-')
// A local file header, an empty archive's end record, or a spanned archive's marker.
const ZIPS = [bytesOf('PK\x03\x04'), bytesOf('PK\x05\x06'), bytesOf('PK\x07\x08')]

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  if (bytes.length < at + signature.length) return false
  return signature.every((byte, index) => bytes[at + index] === byte)
}

/**
 * Whether the head of a file reads as text: no NUL byte (git's test) and valid UTF-8, a character cut off at the
 * end of the head allowed (a head is not the whole file).
 */
function headIsText(head: Uint8Array): boolean {
  if (head.includes(0)) return false
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true })
    return true
  } catch {
    return false
  }
}

/** What a file is, from its first `SNIFF_BYTES` bytes: only these are read, so a whole file or its head give one answer. */
export function sniffBytes(bytes: Uint8Array): ByteKind {
  const head = bytes.subarray(0, SNIFF_BYTES)
  if (startsWith(head, PNG)) return 'png'
  if (startsWith(head, JPEG)) return 'jpeg'
  if (startsWith(head, GIF87) || startsWith(head, GIF89)) return 'gif'
  if (startsWith(head, RIFF) && startsWith(head, WEBP, 8)) return 'webp'
  if (ZIPS.some((signature) => startsWith(head, signature))) return 'zip'
  // At the very start, as PDF writers put it: readers that look further would call a text about PDFs one.
  if (startsWith(head, PDF)) return 'pdf'
  if (headIsText(head)) return 'text'
  return 'other'
}

export const isRaster = (kind: ByteKind): kind is RasterKind => kind in RASTER_MIMES

/** The type of a raster image, by what its bytes are. */
export const rasterMime = (kind: RasterKind) => RASTER_MIMES[kind]

const TEXT_MIMES = /^(text\/|application\/(json|xml|javascript|typescript|x-sh|x-yaml|yaml|toml|sql|x-httpd-php)|image\/svg\+xml)|\+(json|xml)$/

/** Types whose files are text, SVG among them: what they hold is markup or code, read as characters. */
export const isTextMime = (mime: string) => TEXT_MIMES.test(mime)

const CLAIMS: Record<string, ByteKind> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/pjpeg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
  'application/zip': 'zip',
  'application/x-zip-compressed': 'zip',
}

/** What a claimed type promises the bytes are; undefined when it promises nothing we can check (`application/octet-stream`). */
function claimedKind(mime: string): ByteKind | undefined {
  const type = mime.split(';')[0]!.trim().toLowerCase()
  return CLAIMS[type] ?? (isTextMime(type) ? 'text' : undefined)
}

const DESCRIPTIONS: Record<ByteKind, string> = {
  png: 'a PNG image',
  jpeg: 'a JPEG image',
  gif: 'a GIF image',
  webp: 'a WebP image',
  pdf: 'a PDF',
  zip: 'a ZIP archive',
  text: 'text',
  other: 'binary data of another kind',
}

const describeKind = (kind: ByteKind) => DESCRIPTIONS[kind]

/** A file whose bytes are not what its type claims. */
export interface ByteMismatch {
  claimed: ByteKind
  found: ByteKind
}

/**
 * A claimed type held to the bytes: either the type the file may go as, or what breaks the claim. One raster image
 * for another (a JPEG saved as `.png`) is no lie worth refusing: it is still only pixels, and goes as the type its
 * bytes have. A type that promises nothing checkable (`application/octet-stream`, `image/tiff`) goes as it is.
 */
export type ClaimCheck = { kind: 'kept'; mime: string } | { kind: 'broken'; mismatch: ByteMismatch }

/**
 * The one check of a file's claimed type against its bytes, made before the file goes to a model as what it claims
 * (an attachment, a file part in a data URL, the read tool's media). `bytes` may be the file's head: only its first
 * `SNIFF_BYTES` are read.
 */
export function checkClaim(mime: string, bytes: Uint8Array): ClaimCheck {
  const claimed = claimedKind(mime)
  const found = sniffBytes(bytes)
  if (claimed && found !== claimed && !(isRaster(claimed) && isRaster(found))) return { kind: 'broken', mismatch: { claimed, found } }
  return { kind: 'kept', mime: isRaster(found) && mime.toLowerCase().startsWith('image/') ? rasterMime(found) : mime }
}

/** What the person or the model is told became of a file whose bytes broke its claim. */
export type MismatchOutcome = 'it was not sent' | 'it was not attached'

/** The mismatch in words, for the person and the model: "x.pdf: its bytes are a ZIP archive, not a PDF; it was not sent." */
export const describeMismatch = (name: string, mismatch: ByteMismatch, outcome: MismatchOutcome) =>
  `${name}: its bytes are ${describeKind(mismatch.found)}, not ${describeKind(mismatch.claimed)}; ${outcome}.`

/**
 * The one rule for showing a stranger's bytes in the page: as an image only when they claim to be an image and
 * really are PNG, JPEG, GIF or WebP (then with the type the bytes prove); undefined otherwise, and the page shows
 * a chip with the file's name. SVG never qualifies: opened from an object URL it is a document at the app's origin,
 * and its scripts would run there.
 */
export function imageType(claimed: string, bytes: Uint8Array): string | undefined {
  if (!claimed.toLowerCase().startsWith('image/')) return undefined
  const found = sniffBytes(bytes)
  return isRaster(found) ? rasterMime(found) : undefined
}
