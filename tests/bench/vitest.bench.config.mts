import { defineConfig } from 'vitest/config';

// The store benchmark runs through vitest (it imports TypeScript); `npm test` never runs it.
export default defineConfig({ test: { include: ['tests/bench/**/*.bench-run.ts'], testTimeout: 600_000 } });
