import { useState, type ElementType } from 'react'

/**
 * Text that may be very long (a question, a candidate or a move text can be a megabyte
 * of LLM output). Up to `limit` characters it shows whole; past it, its first `limit` characters
 * and an expander that says how much is hidden. Laying out a megabyte of text at once blocked the
 * page for seconds, and a reviewer reads the start first anyway.
 */
export function LongText({ text, limit = LONG_TEXT_LIMIT, as: Tag = 'span', className }: { text: string; limit?: number; as?: ElementType; className?: string }) {
  const [open, setOpen] = useState(false)
  if (text.length <= limit) return <Tag className={className}>{text}</Tag>
  return (
    <Tag className={className}>
      {open ? text : `${text.slice(0, limit)}…`}{' '}
      <button type="button" className="link text-expand" data-testid="text-expand" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? 'Show less' : `Show all (${text.length.toLocaleString('en-US')} characters)`}
      </button>
    </Tag>
  )
}

/** Characters shown before a text collapses: a long paragraph, well under a screen. */
export const LONG_TEXT_LIMIT = 1200

/** A question is a heading: it collapses sooner. */
export const QUESTION_CHARS = 600

/** A label that must stay on one line (a chart axis, a chip, a button): its start, with an ellipsis. */
export function shortLabel(text: string, max = 80): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`
}
