/**
 * The page's script, served at `/web/app.js`: the parts in one strict-mode
 * function scope, so nothing leaks onto `window`. They share that scope, so
 * a part may call a function from any other (declarations are hoisted), but
 * the order still matters for the top-level `var`s: the live part declares
 * the page state, and the app part, last, calls `start()`.
 */
import { SCRIPT_APP } from './script-app.js'
import { SCRIPT_BLOCKS } from './script-blocks.js'
import { SCRIPT_LIVE } from './script-live.js'
import { SCRIPT_MODAL } from './script-modal.js'
import { SCRIPT_TEXT } from './script-text.js'

const PARTS = [SCRIPT_TEXT, SCRIPT_BLOCKS, SCRIPT_LIVE, SCRIPT_MODAL, SCRIPT_APP]

export const PAGE_SCRIPT = `(function () {\n'use strict';\n${PARTS.join('\n')}\n})();\n`
