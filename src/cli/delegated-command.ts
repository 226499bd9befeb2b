import type { CliIo } from './cli-io.js'
import { EXIT } from './exit-codes.js'

/**
 * A subcommand whose implementation lives with its feature (`relay` in
 * src/relay, `sandbox` in src/sandbox) and takes only its arguments.
 * Loaded when run, so `dsh-slack serve` never loads what it does not use.
 */
export async function runDelegatedCommand(io: CliIo, name: string, specifier: string, exportName: string, argv: string[]): Promise<number> {
  let command: ((argv: string[]) => Promise<number | void>) | undefined
  try {
    const module = (await import(specifier)) as Record<string, unknown>
    command = module[exportName] as typeof command
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error
  }
  if (typeof command !== 'function') {
    io.stderr.write(`dsh-slack ${name}: not available yet in this build\n`)
    return EXIT.failure
  }
  const code = await command(argv)
  // A command that returns nothing reports failure the Node way, through process.exitCode.
  return typeof code === 'number' ? code : Number(process.exitCode ?? EXIT.ok)
}
