import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends a run with the figures the reliability checks measured (see figures.ts), the tests that failed with the first
 * lines of their errors, and the plain `N passed, N failed` line that CI reads, whatever the other reporters print.
 * The failures come last because CI keeps only the tail of a long log.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const figureLines: string[] = [];
    const failureLines: string[] = [];
    for (const module of testModules) {
      for (const error of module.errors()) failureLines.push(`  ${module.moduleId}: ${firstLines(error.message)}`);
      for (const test of module.children.allTests()) {
        const figures = test.meta().figures;
        if (figures) {
          const values = Object.entries(figures).map(([name, value]) => `${name} ${value}`);
          figureLines.push(`  ${test.fullName}: ${values.join(', ')}`);
        }
        const result = test.result();
        if (result.state === 'passed') passed++;
        else if (result.state === 'failed') {
          failed++;
          const message = result.errors?.[0]?.message ?? 'failed';
          failureLines.push(`  ${test.module.relativeModuleId} > ${test.fullName}: ${firstLines(message)}`);
        } else skipped++;
      }
    }
    if (figureLines.length > 0) console.log(`\nFigures\n${figureLines.join('\n')}`);
    if (failureLines.length > 0) console.log(`\nFailed\n${failureLines.join('\n')}`);
    console.log(`\n${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
  }
}

/** The first lines of an error message, enough to name what went wrong without a whole diff. */
function firstLines(message: string): string {
  return message.split('\n').slice(0, 3).join(' / ').slice(0, 400);
}
