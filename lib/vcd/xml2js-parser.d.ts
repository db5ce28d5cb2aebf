// The parser half of xml2js, imported on its own so that bundles leave out the builder
// (xmlbuilder), which costs start-up time and is never used.
declare module 'xml2js/lib/parser' {
  export { Parser } from 'xml2js';
}
