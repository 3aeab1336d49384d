// marked leaves character references such as `&amp;` or `&#115;` undecoded in text, link
// destinations and titles, because its own HTML renderer lets the browser decode them. We build
// DOM nodes instead of HTML, so we decode them ourselves.

// A common subset of the HTML named references: the full table has over 2,000 entries, which is
// a lot of bundle for names models rarely write. Unknown names stay as typed, like any other text.
const NAMED_REFERENCES: Readonly<Record<string, string>> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0',
  // Punctuation that shows up in obfuscated URLs; decoding it lets the link checks see through it.
  colon: ':', Tab: '\t', NewLine: '\n', sol: '/', bsol: '\\', lpar: '(', rpar: ')', period: '.',
  comma: ',', semi: ';', excl: '!', quest: '?', num: '#', percnt: '%', plus: '+', equals: '=',
  commat: '@', dollar: '$', ast: '*', lowbar: '_', verbar: '|', vert: '|', grave: '`', Hat: '^',
  lsqb: '[', rsqb: ']', lbrack: '[', rbrack: ']', lcub: '{', rcub: '}', lbrace: '{', rbrace: '}',
  hyphen: '\u2010', dash: '\u2010',
  // Typography.
  copy: '\u00a9', reg: '\u00ae', trade: '\u2122', hellip: '\u2026', mdash: '\u2014', ndash: '\u2013',
  lsquo: '\u2018', rsquo: '\u2019', sbquo: '\u201a', ldquo: '\u201c', rdquo: '\u201d', bdquo: '\u201e',
  laquo: '\u00ab', raquo: '\u00bb', lsaquo: '\u2039', rsaquo: '\u203a', bull: '\u2022',
  middot: '\u00b7', sect: '\u00a7', para: '\u00b6', dagger: '\u2020', Dagger: '\u2021',
  prime: '\u2032', Prime: '\u2033', iexcl: '\u00a1', iquest: '\u00bf', shy: '\u00ad',
  ensp: '\u2002', emsp: '\u2003', thinsp: '\u2009', zwj: '\u200d', zwnj: '\u200c',
  // Currency and units.
  cent: '\u00a2', pound: '\u00a3', yen: '\u00a5', euro: '\u20ac', curren: '\u00a4', deg: '\u00b0',
  micro: '\u00b5', permil: '\u2030', frac12: '\u00bd', frac14: '\u00bc', frac34: '\u00be',
  sup1: '\u00b9', sup2: '\u00b2', sup3: '\u00b3',
  // Mathematics.
  times: '\u00d7', divide: '\u00f7', plusmn: '\u00b1', minus: '\u2212', le: '\u2264', ge: '\u2265',
  ne: '\u2260', asymp: '\u2248', equiv: '\u2261', infin: '\u221e', sum: '\u2211', prod: '\u220f',
  radic: '\u221a', part: '\u2202', nabla: '\u2207', isin: '\u2208', notin: '\u2209', cap: '\u2229',
  cup: '\u222a', sub: '\u2282', sup: '\u2283', sube: '\u2286', supe: '\u2287', and: '\u2227',
  or: '\u2228', not: '\u00ac', forall: '\u2200', exist: '\u2203', empty: '\u2205', int: '\u222b',
  there4: '\u2234', sim: '\u223c', prop: '\u221d', ang: '\u2220', perp: '\u22a5', sdot: '\u22c5',
  lceil: '\u2308', rceil: '\u2309', lfloor: '\u230a', rfloor: '\u230b', lang: '\u27e8', rang: '\u27e9',
  // Arrows.
  larr: '\u2190', uarr: '\u2191', rarr: '\u2192', darr: '\u2193', harr: '\u2194', lArr: '\u21d0',
  uArr: '\u21d1', rArr: '\u21d2', dArr: '\u21d3', hArr: '\u21d4', crarr: '\u21b5',
  // Greek.
  alpha: '\u03b1', beta: '\u03b2', gamma: '\u03b3', delta: '\u03b4', epsilon: '\u03b5', zeta: '\u03b6',
  eta: '\u03b7', theta: '\u03b8', iota: '\u03b9', kappa: '\u03ba', lambda: '\u03bb', mu: '\u03bc',
  nu: '\u03bd', xi: '\u03be', omicron: '\u03bf', pi: '\u03c0', rho: '\u03c1', sigma: '\u03c3',
  tau: '\u03c4', upsilon: '\u03c5', phi: '\u03c6', chi: '\u03c7', psi: '\u03c8', omega: '\u03c9',
  Gamma: '\u0393', Delta: '\u0394', Theta: '\u0398', Lambda: '\u039b', Xi: '\u039e', Pi: '\u03a0',
  Sigma: '\u03a3', Phi: '\u03a6', Psi: '\u03a8', Omega: '\u03a9',
  // Shapes and marks.
  check: '\u2713', cross: '\u2717', star: '\u2606', starf: '\u2605', loz: '\u25ca', spades: '\u2660',
  clubs: '\u2663', hearts: '\u2665', diams: '\u2666',
  // Latin letters with diacritics that models write as references most often.
  auml: '\u00e4', ouml: '\u00f6', uuml: '\u00fc', Auml: '\u00c4', Ouml: '\u00d6', Uuml: '\u00dc',
  szlig: '\u00df', eacute: '\u00e9', egrave: '\u00e8', ecirc: '\u00ea', Eacute: '\u00c9',
  aacute: '\u00e1', agrave: '\u00e0', acirc: '\u00e2', iacute: '\u00ed', oacute: '\u00f3',
  uacute: '\u00fa', ntilde: '\u00f1', Ntilde: '\u00d1', ccedil: '\u00e7', Ccedil: '\u00c7',
  aring: '\u00e5', Aring: '\u00c5', aelig: '\u00e6', AElig: '\u00c6', oslash: '\u00f8',
  Oslash: '\u00d8',
}

const REFERENCE = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z][A-Za-z0-9]{1,31}));/g

// CommonMark: code point 0, surrogates and anything past U+10FFFF become U+FFFD.
function fromCodePoint(codePoint: number): string {
  const invalid = codePoint === 0 || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)
  return String.fromCodePoint(invalid ? 0xfffd : codePoint)
}

/** Decodes numeric and common named HTML character references; unknown names are kept as written. */
export function decodeCharacterReferences(text: string): string {
  if (!text.includes('&')) return text
  return text.replace(REFERENCE, (reference, decimal: string | undefined, hex: string | undefined, name: string | undefined) => {
    if (decimal !== undefined) return fromCodePoint(Number.parseInt(decimal, 10))
    if (hex !== undefined) return fromCodePoint(Number.parseInt(hex, 16))
    if (name !== undefined && Object.hasOwn(NAMED_REFERENCES, name)) return NAMED_REFERENCES[name] ?? reference
    return reference
  })
}
