#!/usr/bin/env node
import { main, processIo } from './run-cli.js'
import { stopWhenNpmGoes } from './stop-with-npm.js'

stopWhenNpmGoes(process.env)
const code = await main(process.argv.slice(2), processIo())
// Exit only once stdout has drained: a piped answer must arrive whole.
process.stdout.write('', () => process.exit(code))
