// tsc copies no .sql files: the stores' numbered migrations go beside the
// compiled code that reads them. Usage: node scripts/copy-sql.mjs [outDir] (default dist).
import { cpSync } from 'node:fs'
import { join } from 'node:path'

const outDir = process.argv[2] ?? 'dist'
cpSync('src/store/migrations', join(outDir, 'src/store/migrations'), {
  recursive: true,
  filter: (source) => !/\.[cm]?[jt]s$/.test(source),
})
