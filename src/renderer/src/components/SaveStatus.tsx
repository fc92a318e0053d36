/** What became of a save: its error, or "Saved." once it succeeded. */
export function SaveStatus({ state }: { state: { isError: boolean; isSuccess: boolean; error: unknown } }) {
  if (state.isError) {
    return (
      <span role="alert" className="error-text">
        {state.error instanceof Error ? state.error.message : 'not saved'}
      </span>
    )
  }
  return state.isSuccess ? <span role="status">Saved.</span> : null
}
