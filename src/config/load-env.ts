import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { config as loadDotenv } from 'dotenv'

/**
 * The process environment with `.env` from the working directory beneath
 * it: a variable set in the shell wins over the file. process.env itself is
 * left as it is.
 */
export function loadEnv(cwd: string = process.cwd(), base: NodeJS.ProcessEnv = process.env): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...base }
  const path = resolve(cwd, '.env')
  if (existsSync(path)) loadDotenv({ path, quiet: true, processEnv: env as Record<string, string> })
  return env
}
