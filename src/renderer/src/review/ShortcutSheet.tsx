import { useHotkeys } from '../hooks/useHotkeys'

const ROWS: [string, string][] = [
  ['1 – 9, 0', 'resolve with that candidate'],
  ['← →, Enter', 'move the focus to a candidate, then label it (Enter labels nothing until you do)'],
  ['/', 'filter more than ten candidates by typing; Enter, then a digit picks'],
  ['↑ ↓', 'scroll the page'],
  ['Backspace, Ctrl+Z', 'undo your last label on this screen (Review: escalation, Calibrate: blind), across reloads'],
  ['s', 'skip to the next task'],
  ['f', 'flag: can’t decide, with a reason (not a label; the task goes back to the queue, marked)'],
  ['p', 'reopen your latest label’s task (or click any in “Your last labels”)'],
  ['h', 'go to your last labels (Tab moves, Enter reopens one)'],
  ['n', 'write a note (saved with the label)'],
  ['j / k, Enter, click', 'move in the queue and open a task'],
  ['?', 'show or hide this sheet'],
  ['Esc', 'leave a field or close this sheet']
]

export function ShortcutSheet({ onClose }: { onClose: () => void }) {
  useHotkeys({ Escape: onClose, '?': onClose })
  return (
    <div className="sheet-backdrop" role="presentation" onClick={onClose}>
      <section className="sheet" role="dialog" aria-modal="true" aria-labelledby="sheet-title" onClick={(e) => e.stopPropagation()}>
        <h2 id="sheet-title">Keyboard shortcuts</h2>
        <p className="muted">Shortcuts are off while you type in a field.</p>
        <table>
          <tbody>
            {ROWS.map(([k, what]) => (
              <tr key={k}>
                <th scope="row">
                  <kbd>{k}</kbd>
                </th>
                <td>{what}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <button type="button" onClick={onClose} autoFocus>
          Close
        </button>
      </section>
    </div>
  )
}
