/**
 * The import rules eslint's rooms (eslint.config.js) cannot state: no circle of imports anywhere,
 * type-only imports included (a circle of types is still two files that cannot be read apart),
 * and the service's levels (docs/architecture.md): routes -> actions -> domain and repositories
 * -> db, never back up. `npm run lint` runs it: `depcruise --config .dependency-cruiser.cjs`.
 */
/** Tests reach across the levels to set up what they check. */
const TESTS = '\\.test\\.tsx?$';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Files that import each other, directly or around a circle, cannot be read or changed apart.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'service-levels-db',
      severity: 'error',
      comment: 'The store (service/db) knows no repository, action, route or job.',
      from: { path: '^service/db/', pathNot: TESTS },
      to: { path: '^service/(repositories|actions|routes|jobs|realtime|http|scripts)/' },
    },
    {
      name: 'service-levels-repositories',
      severity: 'error',
      comment:
        'Repositories and domain rules sit under the actions: they never call one, nor a route or a job.',
      from: { path: '^service/(repositories|domain)/', pathNot: TESTS },
      to: { path: '^service/(actions|routes|jobs|realtime|http|scripts)/' },
    },
    {
      name: 'service-levels-actions',
      severity: 'error',
      comment: 'Actions are called by routes, jobs, scripts and the realtime hub, never the reverse.',
      from: { path: '^service/actions/', pathNot: TESTS },
      to: { path: '^service/(routes|jobs|realtime/hub)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['(^|/)node_modules/', '^dist/', '^release/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.test.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] },
  },
};
