/** A data table's header row: one column header per name. */
export function TableHead({ columns }: { columns: readonly string[] }) {
  const cells = columns.map((c) => <th key={c} scope="col">{c}</th>)
  return (
    <thead>
      <tr>{cells}</tr>
    </thead>
  )
}
