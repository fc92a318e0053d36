/** Entry point of the `arbiter` command: `npm run -s arbiter -- <command>` runs this file with tsx. */
import { main } from './run'

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    console.error(error)
    process.exitCode = 1
  }
)
