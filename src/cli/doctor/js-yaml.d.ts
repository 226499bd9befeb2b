// js-yaml ships no types; doctor --harness and the manifest test need only load().
declare module 'js-yaml' {
  const yaml: { load(text: string): unknown }
  export default yaml
}
