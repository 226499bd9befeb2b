/**
 * The SDK joins method names onto the base URL as given, so
 * `http://host/api` would call `http://host/apiauth.test`: always end it with `/`.
 */
export function apiBaseUrl(url: string): string {
  return url.endsWith('/') ? url : `${url}/`
}
