import js from '@eslint/js'
import globals from 'globals'
import tseslint from 'typescript-eslint'

const ELECTRON = {
  name: 'electron',
  message: 'Only src/main/index.ts, src/main/host/electron.ts and src/preload import electron (DESIGN.md).'
}
const DRIVER_MESSAGE = 'Only src/main/store/sqlite and src/main/store/postgres talk to a database driver (src/main/store/README.md).'
const DRIVERS = [
  { name: 'better-sqlite3', message: DRIVER_MESSAGE },
  { name: 'pg', message: DRIVER_MESSAGE },
  { name: 'pg-copy-streams', message: DRIVER_MESSAGE }
]
const ELECTRON_FILES = ['src/main/index.ts', 'src/main/host/electron.ts', 'src/preload/**']
const DRIVER_FILES = ['src/main/store/sqlite/**', 'src/main/store/postgres/**']

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
  // Tests, benches and scripts may open a database directly; only the desktop shell imports electron.
  {
    files: ['test/**', 'bench/**', 'scripts/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [ELECTRON] }] }
  },
  // Folder boundaries (STYLE.md): within src, only the store's two backend folders import a driver.
  {
    files: ['src/**'],
    ignores: [...ELECTRON_FILES, ...DRIVER_FILES],
    rules: { 'no-restricted-imports': ['error', { paths: [ELECTRON, ...DRIVERS] }] }
  },
  {
    files: ELECTRON_FILES,
    rules: { 'no-restricted-imports': ['error', { paths: DRIVERS }] }
  },
  {
    files: DRIVER_FILES,
    rules: { 'no-restricted-imports': ['error', { paths: [ELECTRON] }] }
  },
  {
    files: ['src/renderer/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [ELECTRON, ...DRIVERS],
          patterns: [{ group: ['**/main/**', '**/main'], message: 'The renderer talks to the main side only through window.api (src/shared/api.ts).' }]
        }
      ]
    }
  }
)
