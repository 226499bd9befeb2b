/** markdown-it-footnote ships no types; its published ones describe the CommonJS build of markdown-it, not the module we import. */
declare module 'markdown-it-footnote' {
  import type { PluginSimple } from 'markdown-it'
  const footnote: PluginSimple
  export default footnote
}
