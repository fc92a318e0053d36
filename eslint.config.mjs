import js from '@eslint/js'
import globals from 'globals'
import tseslint from 'typescript-eslint'

const noElectronNoSqlite = {
  paths: [
    { name: 'electron', message: 'Only src/main/index.ts, src/main/host/electron.ts and src/preload import electron (DESIGN.md).' },
    { name: 'better-sqlite3', message: 'Only src/main/store talks SQL (DESIGN.md).' }
  ]
}

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', 'native/**', 'dist/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error'
    }
  },
  {
    files: ['src/renderer/**'],
    languageOptions: { globals: { ...globals.browser } }
  },
  {
    files: ['src/main/**', 'src/preload/**', 'test/**', 'bench/**', 'scripts/**'],
    ignores: ['src/main/index.ts', 'src/main/host/electron.ts', 'src/preload/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectronNoSqlite.paths[0]] }] }
  },
  // Folder boundaries (STYLE.md): shared and engine run anywhere; the renderer never reaches into main.
  {
    files: ['src/shared/**', 'src/main/engine/**'],
    rules: { 'no-restricted-imports': ['error', noElectronNoSqlite] }
  },
  {
    files: ['src/renderer/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: noElectronNoSqlite.paths,
          patterns: [{ group: ['**/main/**', '**/main'], message: 'The renderer talks to the main side only through window.api (src/shared/api.ts).' }]
        }
      ]
    }
  }
)
