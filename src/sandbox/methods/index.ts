/** Every Web API method the stand-in answers; any other name is `unknown_method`, as at Slack. */
import { agentMethods } from './agents.js'
import { blockMethods } from './blocks.js'
import { chatMethods } from './chat.js'
import { directoryMethods } from './directory.js'
import { fileMethods } from './files.js'
import { historyMethods } from './history.js'
import type { MethodTable } from './method.js'
import { viewMethods } from './views.js'

export const METHODS: MethodTable = { ...directoryMethods, ...historyMethods, ...chatMethods, ...viewMethods, ...fileMethods, ...blockMethods, ...agentMethods }
