// esbuild bundles the stylesheets imported by the app's modules into one CSS file per entry.
declare module '*.css';
