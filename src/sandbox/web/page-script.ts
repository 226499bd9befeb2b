/**
 * The page's script, served at `/web/app.js`: the three parts in one
 * strict-mode function scope, so nothing leaks onto `window`.
 */
import { SCRIPT_APP } from './script-app.js'
import { SCRIPT_BLOCKS } from './script-blocks.js'
import { SCRIPT_TEXT } from './script-text.js'

export const PAGE_SCRIPT = `(function () {\n'use strict';\n${SCRIPT_TEXT}\n${SCRIPT_BLOCKS}\n${SCRIPT_APP}\n})();\n`
