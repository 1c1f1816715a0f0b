import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

// One test file per core at once. Vitest's default keeps a core free for itself (one file at a time on
// two cores), but the files mostly wait on the database, on server processes, on the browser and on
// timers, so a second file in parallel nearly halves the run (docs/performance.md, CI time).
const maxWorkers = availableParallelism();

const common = { testTimeout: 30_000, hookTimeout: 60_000, pool: 'forks', maxWorkers } as const;

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          ...common,
          name: 'app',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'test/browser/**'],
          globalSetup: ['test/helpers/global-setup.ts'],
        },
      },
      {
        // After the others (groupOrder): `npm start` in test/modules/platform rebuilds web/dist, which the
        // browser suites' servers serve; the build they use is made once in their global setup.
        test: {
          ...common,
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          globalSetup: ['test/browser/global-setup.ts'],
          sequence: { groupOrder: 1 },
          // A page's next state arrives after the API's answer and a render: vitest's default second is
          // too short on a busy two-core machine (seen failing on "Confirmed" after a login), and a poll
          // that succeeds returns as soon as it does.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
