/** Thin clients of a running service (`connectToService`, `dsh-slack ask --url`). Only re-exports. */
export { connectToService, type ServiceConnection, type ServiceConnectionOptions } from './connect-to-service.js'
export { ServiceCallError } from './service-http.js'
