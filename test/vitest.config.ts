import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['test/**/*.test.ts'],
    // The stand-in page's script is bundled TypeScript: build it as it is now.
    globalSetup: ['test/support/build-page.ts'],
    // End-to-end suites start real servers and sockets on loopback.
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Two cores: more workers only make sockets and timers contend.
    maxWorkers: 2,
    // .ci/run asks for a JSON copy of the results to print CI's summary line.
    ...(process.env.DSH_SLACK_TEST_RESULTS
      ? { reporters: ['default', ['json', { outputFile: process.env.DSH_SLACK_TEST_RESULTS }]] as const }
      : {}),
  },
})
