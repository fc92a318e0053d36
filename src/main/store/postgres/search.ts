/**
 * Question search, with the semantics of the SQLite queue (sqlite/dialect.ts `ftsQuery`, an
 * FTS5 `unicode61 remove_diacritics 2` index): the words of the text, case- and accent-folded,
 * each matched as a prefix of a question's word, all of them required. The lexemes are made here
 * in code, for the index and the query alike, so PostgreSQL's text-search parser and dictionaries
 * (which split and stem differently) play no part: the index is `array_to_tsvector` of the words
 * and the query a tsquery of quoted prefix lexemes.
 */

/** Letters and digits; like unicode61, anything else (underscore included) separates words. */
const WORD = /[\p{L}\p{N}]+/gu

function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase()
}

/** The distinct words of a question, as index lexemes. */
export function searchLexemes(text: string | null): string[] {
  if (text === null) return []
  return [...new Set(fold(text).match(WORD) ?? [])]
}

/** The tsquery text for a search (the first 16 words, each a prefix), or null when it has no word. */
export function searchQuery(text: string): string | null {
  const words = (fold(text).match(WORD) ?? []).slice(0, 16)
  // Lexemes hold letters and digits only, so quoting needs no escaping.
  return words.length === 0 ? null : words.map((w) => `'${w}':*`).join(' & ')
}
