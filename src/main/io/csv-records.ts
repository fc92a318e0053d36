import type { ReadError } from './read-error'

export type Delimiter = 'comma' | 'semicolon' | 'tab' | 'space'

const NEWLINE = 0x0a
export const DELIMITERS: readonly Delimiter[] = ['comma', 'semicolon', 'tab', 'space']
/** The quoted dialects' separators. */
const SEPARATOR = { comma: ',', semicolon: ';' } as const

export interface CsvRecord {
  /** Physical line on which the record starts (1-based; blank lines counted). */
  line: number
  fields: string[]
}

/**
 * Splits a delimited text into records. `comma` is RFC 4180 (double-quoted fields may hold commas,
 * `""` and newlines); `semicolon` the same with `;` between fields (spreadsheets write it where the
 * comma is the decimal mark); `tab` splits on each tab, unquoted, as the crowdsourcing dumps are written;
 * `space` splits on runs of spaces and tabs ("whitespace-separated", as zhang-spectral-em documents
 * its files). LF or CRLF, a final newline or not, and a leading BOM are all accepted; blank lines are
 * skipped but counted. A field is taken exactly as written (no trimming) except in `space`.
 */
export function parseRecords(text: string, delimiter: Delimiter, file: string): { records: CsvRecord[]; errors: ReadError[] } {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  if (delimiter === 'comma' || delimiter === 'semicolon') return parseQuoted(body, file, SEPARATOR[delimiter])
  const records: CsvRecord[] = []
  body.split('\n').forEach((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    if (line.trim() === '') return
    const fields = delimiter === 'tab' ? line.split('\t') : line.trim().split(/[ \t]+/)
    records.push({ line: i + 1, fields })
  })
  return { records, errors: [] }
}

/** RFC 4180 (with `sep` between fields), CRLF or LF record ends; a quote inside an unquoted field is kept literally. */
function parseQuoted(text: string, file: string, sep: ',' | ';'): { records: CsvRecord[]; errors: ReadError[] } {
  const SEP = sep.charCodeAt(0)
  const records: CsvRecord[] = []
  const errors: ReadError[] = []
  const bad = (line: number, message: string): void => {
    errors.push({ file, line, task: null, move: null, rule: 'bad-quote', message })
  }
  let line = 1
  let i = 0
  const n = text.length
  while (i < n) {
    const start = line
    const fields: string[] = []
    let field = ''
    let broken = false
    // One record: fields until an unquoted newline or the end of the text.
    for (;;) {
      if (text[i] === '"' && field === '') {
        const close = readQuoted(text, i + 1)
        if (close === null) {
          bad(start, 'a quoted field is never closed')
          return { records, errors }
        }
        field = close.value
        line += close.newlines
        i = close.next
        if (i < n && text[i] !== sep && text[i] !== '\n' && !(text[i] === '\r' && (i + 1 >= n || text[i + 1] === '\n'))) {
          if (!broken) bad(start, 'characters after a closing quote')
          broken = true
          while (i < n && text[i] !== sep && text[i] !== '\n') i++
        }
      } else {
        // Scan, then slice once: adding a character at a time builds a string per character.
        let j = i
        while (j < n && text.charCodeAt(j) !== SEP && text.charCodeAt(j) !== NEWLINE) j++
        field = text.slice(i, j)
        i = j
        if (field.endsWith('\r') && (i >= n || text[i] === '\n')) field = field.slice(0, -1)
      }
      fields.push(field)
      field = ''
      if (i < n && text[i] === sep) {
        i++
        continue
      }
      if (i < n && text[i] === '\r') i++
      if (i < n && text[i] === '\n') i++
      line++
      break
    }
    const blank = fields.length === 1 && fields[0].trim() === ''
    if (!blank && !broken) records.push({ line: start, fields })
  }
  return { records, errors }
}

/** Reads a quoted field's body from `from` (just after the opening quote). */
function readQuoted(text: string, from: number): { value: string; next: number; newlines: number } | null {
  let value = ''
  let newlines = 0
  let i = from
  for (;;) {
    const quote = text.indexOf('"', i)
    if (quote < 0) return null
    const part = text.slice(i, quote)
    for (let nl = part.indexOf('\n'); nl >= 0; nl = part.indexOf('\n', nl + 1)) newlines++
    value += part
    if (text[quote + 1] !== '"') return { value, next: quote + 1, newlines }
    value += '"'
    i = quote + 2
  }
}
