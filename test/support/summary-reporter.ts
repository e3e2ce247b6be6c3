import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends a run with the figures the reliability checks measured (see figures.ts) and the plain `N passed, N failed` line
 * that CI reads, whatever the other reporters print.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const figureLines: string[] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const figures = test.meta().figures;
        if (figures) {
          const values = Object.entries(figures).map(([name, value]) => `${name} ${value}`);
          figureLines.push(`  ${test.fullName}: ${values.join(', ')}`);
        }
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
    }
    if (figureLines.length > 0) console.log(`\nFigures\n${figureLines.join('\n')}`);
    console.log(`\n${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
  }
}
