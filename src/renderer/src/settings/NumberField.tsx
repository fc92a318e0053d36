import { useId } from 'react'
import type { NumberText } from './number-text'

interface Props {
  testId: string
  text: string
  /** The text as the schema reads it; null while the field is not in use. */
  read: NumberText | null
  onText: (text: string) => void
  /** Given when no visible label names the field (the budget's number sits beside its kind). */
  label?: string
  disabled?: boolean
  placeholder?: string
}

/**
 * A number typed as text: what the reviewer types stays on screen as typed, and a value the schema
 * rejects is marked with the reason under the field (never coerced, never blocked by a browser rule).
 */
export function NumberField({ testId, text, read, onText, label, disabled, placeholder }: Props) {
  const errorId = useId()
  const problem = !disabled && read !== null && !read.ok ? read.message : null
  return (
    <span className="number-field">
      <input
        data-testid={testId}
        type="text"
        inputMode="decimal"
        autoComplete="off"
        spellCheck={false}
        value={text}
        disabled={disabled}
        placeholder={placeholder}
        aria-label={label}
        aria-invalid={problem !== null}
        aria-describedby={problem !== null ? errorId : undefined}
        onChange={(e) => onText(e.target.value)}
      />
      {problem !== null && (
        <span id={errorId} className="error-text field-error" data-testid={`${testId}-error`}>
          {problem}
        </span>
      )}
    </span>
  )
}
