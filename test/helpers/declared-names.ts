/**
 * The names a TypeScript file declares and exports itself (interfaces, types, consts, functions,
 * classes, enums), re-exports of another file's names left out: two files that both list a name
 * here hold two definitions of it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'

export function declaredExports(source: string): string[] {
  const file = ts.createSourceFile('x.ts', source, ts.ScriptTarget.Latest, false)
  const names: string[] = []
  for (const node of file.statements) {
    const exported = ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
    if (!exported) continue
    if (ts.isVariableStatement(node)) {
      for (const d of node.declarationList.declarations) if (ts.isIdentifier(d.name)) names.push(d.name.text)
    } else if (
      (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node) || ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node) || ts.isEnumDeclaration(node)) &&
      node.name !== undefined
    ) {
      names.push(node.name.text)
    }
  }
  return names
}

/** Every name the .ts files under `dir` declare and export, with the files that declare it. */
export function declaredExportsUnder(dir: string): Map<string, string[]> {
  const out = new Map<string, string[]>()
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = join(d, name)
      if (statSync(full).isDirectory()) walk(full)
      else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) for (const n of declaredExports(readFileSync(full, 'utf8'))) out.set(n, [...(out.get(n) ?? []), full])
    }
  }
  walk(dir)
  return out
}
