// tsc copies no .sql files: the stores' numbered migrations go to dist/ beside the compiled code that reads them.
import { cpSync } from 'node:fs'

cpSync('src/store/migrations', 'dist/src/store/migrations', {
  recursive: true,
  filter: (source) => !/\.[cm]?[jt]s$/.test(source),
})
