// esbuild bundles the stylesheets imported by the app's modules into one CSS file per entry.
declare module '*.css';
// `x?url` (scripts/build-web.ts): the file's URL, relative to the importing module's bundle.
declare module '*?url' {
  const url: string;
  export default url;
}
