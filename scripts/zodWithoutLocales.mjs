// An esbuild plugin for the host and CLI bundles.
/**
 * zod's `z` namespace re-exports every error-message locale (`z.locales.*` and `z.core.locales.*`,
 * 255 KB of the 1.6 MB host bundle), and a namespace cannot be tree-shaken. We never switch
 * locale, and zod registers English by itself from its schema code, not through these
 * namespaces. So both resolve to an empty module in our bundles (test/unit/build/zodBundle.test.ts
 * checks the messages stay English).
 */
export const zodWithoutLocales = {
  name: 'zod-without-locales',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic[\\/]external|core[\\/]index)\.js$/.test(args.importer) ? { path: 'zod-locales', namespace: 'zod-without-locales' } : undefined,
    );
    // z.fromJSONSchema (12 KB) is re-exported by the same namespace; src/ never calls it (a test checks).
    build.onResolve({ filter: /^\.\/from-json-schema\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/]classic[\\/]external\.js$/.test(args.importer) ? { path: 'zod-from-json-schema', namespace: 'zod-without-locales' } : undefined,
    );
    build.onLoad({ filter: /^zod-from-json-schema$/, namespace: 'zod-without-locales' }, () => ({
      contents: "export function fromJSONSchema() { throw new Error('z.fromJSONSchema is not in Threadline\\'s bundles'); }",
      loader: 'js',
    }));
    build.onLoad({ filter: /.*/, namespace: 'zod-without-locales' }, () => ({ contents: 'export {};', loader: 'js' }));
  },
};
