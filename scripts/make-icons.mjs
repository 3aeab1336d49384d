#!/usr/bin/env node
// Draws the tabcode app icon: public/icon.svg, public/icon-192.png, public/icon-512.png.
// Plain Node only: a tiny rasteriser (supersampled for antialiasing) and a hand-written PNG encoder (zlib + CRC32).
// The SVG and the PNGs come from the same shape list below, so they always match.
//
//   node scripts/make-icons.mjs
import { deflateSync } from 'node:zlib'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const OUT_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'public')

const BG = '#1b1d23' // app background / theme colour
const LIGHT = '#c0caf5' // the active browser tab + window frame
const STRIP = '#414868' // the tab strip behind it
const ACCENT = '#7aa2f7' // the >_ prompt

// Geometry on a 512×512 canvas, painted in order (later shapes on top).
// rrect: x0,y0,x1,y1 with corner radii [tl, tr, br, bl]; stroke: polyline of thick segments with round caps/joins.
const SHAPES = [
  { kind: 'rrect', color: BG, x0: 0, y0: 0, x1: 512, y1: 512, r: [112, 112, 112, 112] },
  // browser window: a dim tab strip on top, the light page frame below it
  { kind: 'rrect', color: STRIP, x0: 96, y0: 112, x1: 416, y1: 400, r: [28, 28, 28, 28] },
  { kind: 'rrect', color: LIGHT, x0: 96, y0: 172, x1: 416, y1: 400, r: [0, 0, 28, 28] },
  // the active tab, flowing into the frame with concave "flares" at its foot (drawn as light squares with strip-coloured discs over them)
  { kind: 'rrect', color: LIGHT, x0: 142, y0: 124, x1: 286, y1: 180, r: [18, 18, 0, 0] },
  { kind: 'rrect', color: LIGHT, x0: 124, y0: 154, x1: 142, y1: 172, r: [0, 0, 0, 0] },
  { kind: 'rrect', color: LIGHT, x0: 286, y0: 154, x1: 304, y1: 172, r: [0, 0, 0, 0] },
  { kind: 'rrect', color: STRIP, x0: 106, y0: 136, x1: 142, y1: 172, r: [18, 18, 18, 18] },
  { kind: 'rrect', color: STRIP, x0: 286, y0: 136, x1: 322, y1: 172, r: [18, 18, 18, 18] },
  // the page area inside the window
  { kind: 'rrect', color: BG, x0: 120, y0: 196, x1: 392, y1: 376, r: [12, 12, 12, 12] },
  // >_
  { kind: 'stroke', color: ACCENT, width: 28, points: [[170, 238], [226, 286], [170, 334]] },
  { kind: 'stroke', color: ACCENT, width: 28, points: [[256, 334], [342, 334]] },
]

// A maskable icon is cropped by the platform (circle, squircle…): a full-bleed background, and the mark shrunk into
// the central safe zone (a circle of 80% of the width).
const shrink = (v) => 256 + (v - 256) * 0.75
const MASKABLE_SHAPES = [
  { kind: 'rrect', color: BG, x0: 0, y0: 0, x1: 512, y1: 512, r: [0, 0, 0, 0] },
  ...SHAPES.slice(1).map((shape) =>
    shape.kind === 'rrect'
      ? { ...shape, x0: shrink(shape.x0), y0: shrink(shape.y0), x1: shrink(shape.x1), y1: shrink(shape.y1), r: shape.r.map((r) => r * 0.75) }
      : { ...shape, width: shape.width * 0.75, points: shape.points.map(([x, y]) => [shrink(x), shrink(y)]) },
  ),
]

// ---------------------------------------------------------------- geometry tests

function insideRRect(s, x, y) {
  if (x < s.x0 || x > s.x1 || y < s.y0 || y > s.y1) return false
  const [tl, tr, br, bl] = s.r
  const left = x < (s.x0 + s.x1) / 2
  const top = y < (s.y0 + s.y1) / 2
  const r = top ? (left ? tl : tr) : left ? bl : br
  if (r <= 0) return true
  const cx = left ? s.x0 + r : s.x1 - r
  const cy = top ? s.y0 + r : s.y1 - r
  const dx = left ? Math.max(cx - x, 0) : Math.max(x - cx, 0)
  const dy = top ? Math.max(cy - y, 0) : Math.max(y - cy, 0)
  return dx * dx + dy * dy <= r * r
}

function distToSegmentSq(px, py, ax, ay, bx, by) {
  const vx = bx - ax
  const vy = by - ay
  const len = vx * vx + vy * vy
  const t = len === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * vx + (py - ay) * vy) / len))
  const dx = px - (ax + t * vx)
  const dy = py - (ay + t * vy)
  return dx * dx + dy * dy
}

function insideStroke(s, x, y) {
  const h = s.width / 2
  for (let i = 0; i + 1 < s.points.length; i++) {
    const [ax, ay] = s.points[i]
    const [bx, by] = s.points[i + 1]
    if (distToSegmentSq(x, y, ax, ay, bx, by) <= h * h) return true
  }
  return false
}

const inside = (s, x, y) => (s.kind === 'rrect' ? insideRRect(s, x, y) : insideStroke(s, x, y))

const hexToRgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16))

// ---------------------------------------------------------------- rasteriser

/** Renders SHAPES at size×size, ss×ss samples per pixel. Returns RGBA bytes (straight alpha). */
function render(size, shapes = SHAPES, ss = 5) {
  const SHAPES = shapes
  const scale = 512 / size
  const colors = SHAPES.map((s) => hexToRgb(s.color))
  const out = Buffer.alloc(size * size * 4)
  const n = ss * ss
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0, g = 0, b = 0, a = 0
      for (let sy = 0; sy < ss; sy++) {
        for (let sx = 0; sx < ss; sx++) {
          const x = (px + (sx + 0.5) / ss) * scale
          const y = (py + (sy + 0.5) / ss) * scale
          for (let i = SHAPES.length - 1; i >= 0; i--) {
            if (inside(SHAPES[i], x, y)) {
              const c = colors[i]
              r += c[0]; g += c[1]; b += c[2]; a += 1
              break
            }
          }
        }
      }
      const o = (py * size + px) * 4
      if (a > 0) {
        // premultiplied sums -> straight colour
        out[o] = Math.round(r / a)
        out[o + 1] = Math.round(g / a)
        out[o + 2] = Math.round(b / a)
        out[o + 3] = Math.round((a / n) * 255)
      }
    }
  }
  return out
}

// ---------------------------------------------------------------- PNG encoder

const CRC_TABLE = (() => {
  const t = new Uint32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    t[n] = c >>> 0
  }
  return t
})()

function crc32(buf) {
  let c = 0xffffffff
  for (let i = 0; i < buf.length; i++) c = CRC_TABLE[(c ^ buf[i]) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

function chunk(type, data) {
  const len = Buffer.alloc(4)
  len.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([len, body, crc])
}

function encodePng(width, height, rgba) {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr[8] = 8 // bit depth
  ihdr[9] = 6 // colour type RGBA
  ihdr[10] = 0 // compression
  ihdr[11] = 0 // filter method
  ihdr[12] = 0 // no interlace
  // Each scanline: filter type 1 (Sub) — compresses flat areas well.
  const stride = width * 4
  const raw = Buffer.alloc((stride + 1) * height)
  for (let y = 0; y < height; y++) {
    const ro = y * (stride + 1)
    const so = y * stride
    raw[ro] = 1
    for (let i = 0; i < stride; i++) {
      const left = i >= 4 ? rgba[so + i - 4] : 0
      raw[ro + 1 + i] = (rgba[so + i] - left) & 0xff
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

// ---------------------------------------------------------------- SVG

function rrectPath(s) {
  const [tl, tr, br, bl] = s.r
  const { x0, y0, x1, y1 } = s
  const arc = (r, x, y) => (r > 0 ? `A${r} ${r} 0 0 1 ${x} ${y}` : '')
  return [
    `M${x0 + tl} ${y0}`,
    `H${x1 - tr}`, arc(tr, x1, y0 + tr),
    `V${y1 - br}`, arc(br, x1 - br, y1),
    `H${x0 + bl}`, arc(bl, x0, y1 - bl),
    `V${y0 + tl}`, arc(tl, x0 + tl, y0),
    'Z',
  ].filter(Boolean).join('')
}

function svg() {
  const body = SHAPES.map((s) => {
    if (s.kind === 'rrect') {
      const [a, b, c, d] = s.r
      if (a === b && b === c && c === d) {
        const rx = a ? ` rx="${a}"` : ''
        return `  <rect x="${s.x0}" y="${s.y0}" width="${s.x1 - s.x0}" height="${s.y1 - s.y0}"${rx} fill="${s.color}"/>`
      }
      return `  <path d="${rrectPath(s)}" fill="${s.color}"/>`
    }
    const pts = s.points.map(([x, y]) => `${x},${y}`).join(' ')
    return `  <polyline points="${pts}" fill="none" stroke="${s.color}" stroke-width="${s.width}" stroke-linecap="round" stroke-linejoin="round"/>`
  })
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" width="512" height="512">',
    '  <title>tabcode</title>',
    ...body,
    '</svg>',
    '',
  ].join('\n')
}

// ---------------------------------------------------------------- main

mkdirSync(OUT_DIR, { recursive: true })
writeFileSync(join(OUT_DIR, 'icon.svg'), svg())
console.log('wrote public/icon.svg')
for (const size of [192, 512]) {
  const t = performance.now()
  const png = encodePng(size, size, render(size))
  writeFileSync(join(OUT_DIR, `icon-${size}.png`), png)
  console.log(`wrote public/icon-${size}.png (${png.length} bytes, ${Math.round(performance.now() - t)} ms)`)
}
{
  const png = encodePng(512, 512, render(512, MASKABLE_SHAPES))
  writeFileSync(join(OUT_DIR, 'icon-maskable-512.png'), png)
  console.log(`wrote public/icon-maskable-512.png (${png.length} bytes)`)
}
