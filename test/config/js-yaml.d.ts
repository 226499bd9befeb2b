// js-yaml ships no types; the manifest test needs only load().
declare module 'js-yaml' {
  const yaml: { load(text: string): unknown }
  export default yaml
}
